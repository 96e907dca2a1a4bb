// Import: keys from a file (picked or dropped) or pasted, read into a preview with a reason per row left out, then
// looked up on the service as a read-only job that records each key in the ledger.
import { useEffect, useState, type DragEvent } from 'react';
import {
  decodeImport,
  IMPORT_TEMPLATE,
  importLinks,
  importSizeProblem,
  parseImport,
  type ImportParse,
  type ImportPreview,
} from '../../../../shared/key-import.ts';
import { JobPanel } from '../../components/JobPanel.tsx';
import { ServiceWait, useServiceWait } from '../../components/ServiceWait.tsx';
import { StartingLine } from '../../components/StartingLine.tsx';
import { call } from '../../lib/api.ts';
import { fmt, NOUNS } from '../../lib/format.ts';
import { isLive } from '../../lib/jobs.ts';
import { useKeydesk } from '../../store/index.ts';
import { selectJob } from '../../store/job-selectors.ts';

/** Rows left out that the preview lists; the rest are counted. */
const PROBLEMS_SHOWN = 200;
const PASTED = 'pasted keys';
const ROW = { one: 'row', other: 'rows' };

/** A file read for an import: its size checked before it is read whole, then its bytes checked as text. */
async function readFile(file: File): Promise<ImportParse> {
  const tooBig = importSizeProblem(file.size);
  if (tooBig !== null) return { ok: false, message: `${file.name}: ${tooBig}` };
  const text = decodeImport(new Uint8Array(await file.arrayBuffer()));
  if (!text.ok) return { ok: false, message: `${file.name}: ${text.message}` };
  const parsed = parseImport(text.text, file.name);
  return parsed.ok ? parsed : { ok: false, message: `${file.name}: ${parsed.message}` };
}

function downloadTemplate(): void {
  const url = URL.createObjectURL(new Blob([IMPORT_TEMPLATE], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'keydesk-import-template.csv';
  a.click();
  URL.revokeObjectURL(url);
}

/** Names the book's customers listed at most; the rest are counted. */
const KNOWN_SHOWN = 5;

/** The customers the rows name, as the book has them: those already in it get the keys, the others are made. */
function PreviewCustomers({ rows }: { rows: ImportPreview['rows'] }) {
  const [known, setKnown] = useState<{ rows: ImportPreview['rows']; names: string[]; total: number } | null>(null);
  useEffect(() => {
    let live = true;
    const links = importLinks(rows);
    if (links.length === 0) return;
    const customers = links.map((l) => ({ name: l.fields.name, email: l.fields.email, discordId: l.fields.discordId }));
    void call('import.customers', { customers }).then((r) => {
      if (!live || !r.ok) return;
      const names = r.data.known.flatMap((c) => (c === null ? [] : [c.name]));
      setKnown({ rows, names, total: links.length });
    });
    return () => {
      live = false;
    };
  }, [rows]);
  if (known?.rows !== rows) return null;
  const shown = known.names.slice(0, KNOWN_SHOWN).join(', ');
  const more = known.names.length > KNOWN_SHOWN ? ` and ${fmt.number(known.names.length - KNOWN_SHOWN)} more` : '';
  return (
    <p aria-label="Import customers">
      {fmt.count(known.total, { one: 'customer', other: 'customers' })} named: {fmt.number(known.names.length)} already in the book
      {known.names.length > 0 ? ` (${shown}${more}), their keys linked to them` : ''}; {fmt.number(known.total - known.names.length)} new.
    </p>
  );
}

function Preview({ source, preview }: { source: string; preview: ImportPreview }) {
  const problems = [...preview.malformed, ...preview.duplicates].sort((a, b) => a.row - b.row);
  const n = (x: number) => x.toLocaleString();
  return (
    <div className="card" aria-label="Import preview" role="region">
      <p role="status">
        <strong>{source}</strong>: {fmt.count(preview.read, ROW)} read, <strong>{fmt.count(preview.rows.length, NOUNS.key)}</strong> to look
        up, {n(preview.duplicates.length)} {preview.duplicates.length === 1 ? 'duplicate' : 'duplicates'}, {n(preview.malformed.length)}{' '}
        malformed.
      </p>
      <p className="muted">
        Read as {preview.format.toUpperCase()}
        {preview.keyColumn === null ? '' : `; keys from the "${preview.keyColumn}" column`}
        {preview.fields.length === 0 ? '.' : `; customer fields: ${preview.fields.join(', ')} (linked to customers when the job starts).`}
      </p>
      {preview.fields.length > 0 && <PreviewCustomers rows={preview.rows} />}
      {problems.length > 0 && (
        <details>
          <summary>
            Rows left out ({n(problems.length)}){problems.length > PROBLEMS_SHOWN ? `, first ${n(PROBLEMS_SHOWN)} shown` : ''}
          </summary>
          <ul className="mono" aria-label="Rows left out">
            {problems.slice(0, PROBLEMS_SHOWN).map((p) => (
              <li key={p.row}>
                Row {n(p.row)}
                {p.value === '' ? '' : ` (${p.value.slice(0, 60)})`}: {p.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

export function Import() {
  const [read, setRead] = useState<{ source: string; parse: ImportParse } | null>(null);
  const [pasted, setPasted] = useState('');
  const [jobId, setJobId] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const job = useKeydesk((s) => (jobId === null ? null : (s.jobs[jobId] ?? null)));
  const starting = useKeydesk((s) => s.jobStarting);
  const current = useKeydesk(selectJob);
  const busy = current !== null && isLive(current);
  const start = useKeydesk((s) => s.startImport);
  const waits = useServiceWait() !== null;
  const profile = useKeydesk((s) => s.profiles.find((p) => p.id === s.activeProfileId) ?? null);

  const take = async (file: File | undefined) => {
    if (!file) return;
    setJobId(null);
    setRead({ source: file.name, parse: await readFile(file) });
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    void take(e.dataTransfer.files[0]);
  };
  const preview = read?.parse.ok ? read.parse.preview : null;

  return (
    <section aria-labelledby="import-title">
      <h1 id="import-title">Import keys</h1>
      <p className="muted">
        Record keys sold before Keydesk in All keys: each is looked up on {profile ? <strong>{profile.name}</strong> : 'the service'}, which
        is not changed.
      </p>
      <p className="muted">
        CSV, TSV, TXT (one key per line) or JSON, up to 50 MB. Columns may carry a customer's name, email, Discord ID, reference and a note.
      </p>
      <div
        className={over ? 'card import-drop over' : 'card import-drop'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <label>
          Choose a file, or drop one here{' '}
          <input
            type="file"
            data-command-target="import-file"
            accept=".csv,.tsv,.txt,.json,text/csv,text/plain,application/json"
            onChange={(e) => {
              void take(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
        <button type="button" onClick={downloadTemplate}>
          Download the template (CSV)
        </button>
      </div>
      <form
        className="card import-paste"
        onSubmit={(e) => {
          e.preventDefault();
          setJobId(null);
          setRead({ source: PASTED, parse: parseImport(pasted) });
        }}
      >
        <label htmlFor="import-paste">Or paste keys</label>
        <textarea id="import-paste" rows={5} value={pasted} onChange={(e) => setPasted(e.target.value)} />
        <button type="submit" disabled={pasted.trim() === ''}>
          Read pasted keys
        </button>
      </form>
      {read && !read.parse.ok && (
        <p role="alert" className="error">
          {read.parse.message} Nothing was imported.
        </p>
      )}
      {read && preview && (
        <>
          <Preview source={read.source} preview={preview} />
          {jobId === null && (
            <p>
              <button
                type="button"
                className="primary"
                disabled={preview.rows.length === 0 || starting !== null || busy || waits}
                onClick={() => {
                  void start(read.source, preview.rows).then(setJobId);
                }}
              >
                Look up {fmt.count(preview.rows.length, NOUNS.key)}
              </button>
              {busy && <span className="muted"> One job at a time per service: this comes back when the running job ends.</span>}
            </p>
          )}
          <ServiceWait id="import-waits" what="Starting the import" />
        </>
      )}
      {starting?.action === 'import' && (
        <p role="status">
          <StartingLine starting={starting} />
        </p>
      )}
      {job && (
        <div className="bulk-progress">
          <JobPanel job={job} place="allKeys" />
          {!isLive(job) && (
            <p className="muted">
              Its results, key by key (found active, found generated, not on the service), export from here or from Jobs.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
