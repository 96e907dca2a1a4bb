// Preloaded with `node --import`: this Node claims to be 20.11.1 and has no node:sqlite, as an old Node would.
import { registerHooks } from 'node:module';

Object.defineProperty(process.versions, 'node', { value: '20.11.1' });
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'node:sqlite')
      throw Object.assign(new Error(`No such built-in module: ${specifier}`), { code: 'ERR_UNKNOWN_BUILTIN_MODULE' });
    return next(specifier, context);
  },
});
