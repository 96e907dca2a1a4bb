// The validation route a protected application calls.
import { KEYLESS_KEY, type DetailBody } from '../../shared/wire.ts';
import type { PublicHandler } from './types.ts';

/** No apiKey; always 200 once the parameters are well formed, with the outcome in V2_Authentication. */
export const validate: PublicHandler<DetailBody<'validate'>> = {
  auth: 'public',
  handle: ({ params, store }) => {
    const key = params.requiredString('key');
    const service = params.requiredString('service');
    const hwid = params.requiredString('hwid');
    const dryRun = params.bool('dryRun') ?? false;
    return { status: 200, body: store.validate(service, key, hwid, dryRun, KEYLESS_KEY) };
  },
};
