// The command-line options the cases read, as run.ts parses them.
export interface BenchOptions {
  /** Length of each timed throughput phase. */
  seconds: number;
  /** Requests in flight for throughput and wal. */
  connections: number;
  /** Keys the search case builds. */
  searchKeys: number;
  /** Another built checkout of Keydesk whose rss rounds alternate with this tree's; null: this tree alone. */
  rssAgainst: string | null;
  /** Rounds of the rss case (default 1, or 4 against another tree). */
  rssRounds: number;
}
