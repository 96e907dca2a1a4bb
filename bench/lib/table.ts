// The run's figures: each case records its rows here as it goes, and run.ts prints them as one Markdown table.
interface Row {
  figure: string;
  ours: string;
  baseline: string;
  ratio: number;
  target: string;
  pass: boolean;
}

const rows: Row[] = [];

export function record(figure: string, ours: string, baseline: string, ratio: number, target: string, pass: boolean): void {
  rows.push({ figure, ours, baseline, ratio, target, pass });
  console.error(`  ${figure}: ratio ${ratio.toFixed(2)} (${pass ? 'meets' : 'MISSES'} ${target})`);
}

/** Prints the table to stdout; true when every figure met its target. */
export function printTable(): boolean {
  console.log('\n| figure | ours | baseline | ratio | target |');
  console.log('|---|---|---|---|---|');
  for (const r of rows)
    console.log(`| ${r.figure} | ${r.ours} | ${r.baseline} | ${r.ratio.toFixed(2)} | ${r.target}${r.pass ? '' : ' (missed)'} |`);
  console.log(`\nNode ${process.version}, ${process.platform}/${process.arch}, load from this process over 127.0.0.1.`);
  return rows.every((r) => r.pass);
}
