// The numbers every case reduces its samples to, and how the table prints them.
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

export const p95 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? Number.NaN;
};

export const fmt = (n: number, unit: string): string => `${n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2)} ${unit}`;

/** Round times in whole ms, for the progress lines. */
export const msList = (xs: number[], sep = ' '): string => xs.map((x) => x.toFixed(0)).join(sep);
