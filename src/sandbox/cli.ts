// `keydesk-sandbox` (`npm run sandbox --`): the sandbox as a standalone service, for vendors testing their
// integration offline and for Keydesk's own tests. Checks the Node first: the commands load node:sqlite.
import { nodeProblem, SANDBOX_VERSION, USAGE } from './runtime.ts';

const args = process.argv.slice(2);
if (args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
  process.stdout.write(`${USAGE}\n`);
} else if (args[0] === '--version' || args[0] === '-v') {
  process.stdout.write(`${SANDBOX_VERSION}\n`);
} else {
  const problem = nodeProblem(process.versions.node);
  if (problem !== null) {
    process.stderr.write(`${problem}\n`);
    process.exitCode = 1;
  } else {
    const { main } = await import('./commands.ts');
    // Not imported above: a Node without node:sqlite would fail on it before the check.
    const code = await main(args, USAGE);
    if (code >= 0) process.exitCode = code;
  }
}
