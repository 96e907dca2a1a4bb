// The start's integrity check (integrity.ts) on a thread of its own, so main keeps answering the window meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { damageOf, type CheckAnswer } from './integrity.ts';

const answers = (workerData as string[]).map((file): CheckAnswer => {
  try {
    return { damage: damageOf(file) };
  } catch (error) {
    console.error(`keydesk: ${file} could not be checked:`, error);
    const code = (error as { code?: unknown } | null)?.code;
    return { error: `${file}${typeof code === 'string' ? ` (${code})` : ''}` };
  }
});
parentPort?.postMessage(answers);
