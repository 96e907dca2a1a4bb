// What the window shows while main upgrades keydesk.db (an older Keydesk's records, at first start of this
// version): which step, how many keys where they are counted, and how long so far. Nothing else is shown
// meanwhile: no view could say anything true about keys while their records are being rebuilt.
import type { StartupStatus, UpgradeWork } from '../../../shared/domain.ts';
import { fmt, NOUNS } from '../lib/format.ts';

const WORK_WORDS: Record<UpgradeWork, string> = {
  copy: 'copying your keys into the new layout',
  clear: 'clearing the old copy',
  index: 'building a sort index for All keys',
  text: 'building the text search index',
  count: 'counting keys by status',
  save: 'saving the upgrade',
};

/** A time so far: "12 s", "1 min 5 s", "1 h 2 min". */
export function elapsedWords(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * The step, said once per step ("Step 2 of 11: copying your keys into the new layout.", "Step 11 of 13: building
 * the text search index, part 2 of 3."), and the keys it goes
 * over, which move every few thousand rows ("350,000 of 1,000,000 keys", or "1,000,000 keys" where a step's rows
 * are not counted; none while saving).
 */
export function upgradeLines(upgrade: NonNullable<StartupStatus['upgrade']>): { step: string; keys: string | null } {
  const { step, steps, work, pass, passes, done, total } = upgrade;
  // A work done in more than one step says which part this is, so a count starting again at 0 under the same
  // words does not read as the upgrade going back.
  const which = passes > 1 ? `, part ${fmt.number(pass)} of ${fmt.number(passes)}` : '';
  const where = `Step ${fmt.number(step)} of ${fmt.number(steps)}: ${WORK_WORDS[work]}${which}.`;
  if (work === 'save') return { step: where, keys: null };
  return {
    step: where,
    keys: done === null ? fmt.count(total, NOUNS.key) : `${fmt.number(Math.min(done, total))} of ${fmt.count(total, NOUNS.key)}`,
  };
}

export function StartupProgress({ upgrade }: { upgrade: NonNullable<StartupStatus['upgrade']> }) {
  const counted = upgrade.done !== null && upgrade.total > 0;
  const lines = upgradeLines(upgrade);
  return (
    <main className="center startup" data-app-state="upgrading" aria-labelledby="startup-title">
      <h1 id="startup-title">Upgrading your local records</h1>
      <p>
        This version of Keydesk keeps its records of your keys in a new layout, for faster search in All keys. The upgrade is done once,
        now.
      </p>
      {/* Announced once per step; the keys done move too often to be read out, and are shown beside the bar. */}
      <p role="status">{lines.step}</p>
      {/* A bar for a step whose keys are counted; otherwise a moving bar: the step is under way, its end not known. */}
      {counted ? (
        <progress aria-label="Keys done in this step" value={Math.min(upgrade.done ?? 0, upgrade.total)} max={upgrade.total} />
      ) : (
        <progress aria-label="This step is under way" />
      )}
      {lines.keys && <p className="startup-keys">{lines.keys}</p>}
      <p className="muted">{elapsedWords(upgrade.elapsedMs)} so far.</p>
      <p className="muted">
        Keep Keydesk open until this is done. If it is closed or stops, nothing is lost: your records stay as they were, and the upgrade
        starts again the next time Keydesk opens.
      </p>
    </main>
  );
}
