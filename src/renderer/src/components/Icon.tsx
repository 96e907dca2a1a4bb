// A few 16px line icons, drawn inline (no icon font, no network, CSP-safe). Decorative: the text beside an
// icon carries the meaning, so each is aria-hidden.
const PATHS = {
  check: 'M3.5 8.5l3 3 6-7',
  circle: 'M8 3.25a4.75 4.75 0 1 0 0 9.5a4.75 4.75 0 1 0 0-9.5z',
  dot: 'M8 5a3 3 0 1 0 0 6a3 3 0 1 0 0-6z',
  cross: 'M4.5 4.5l7 7M11.5 4.5l-7 7',
  clock: 'M8 2.75a5.25 5.25 0 1 0 0 10.5a5.25 5.25 0 1 0 0-10.5zM8 5v3.25l2.25 1.5',
  star: 'M8 2.5l1.7 3.5 3.8.5-2.8 2.6.7 3.8L8 11.1l-3.4 1.8.7-3.8L2.5 6.5l3.8-.5z',
  lock: 'M4.5 7.5h7v5.5h-7zM6 7.5V5.5a2 2 0 0 1 4 0v2',
  copy: 'M5.5 5.5h7v7.5h-7zM3.5 10.5V3h7',
  alert: 'M8 2.5l6 10.5H2zM8 6.5v3M8 11.25v.5',
  search: 'M7 3a4 4 0 1 0 0 8a4 4 0 1 0 0-8zM10 10l3.5 3.5',
  plus: 'M8 3.5v9M3.5 8h9',
  arrowUp: 'M8 12.5v-9M4.5 7L8 3.5 11.5 7',
  arrowDown: 'M8 3.5v9M4.5 9L8 12.5 11.5 9',
  /** A column that can be sorted but is not: neutral, so the active one is told by its shape, not colour alone. */
  arrowUpDown: 'M5 6L8 3 11 6M5 10L8 13 11 10',
  command: 'M4 2.5h8v11H4zM6 5.5h4M6 8h4M6 10.5h2.5',
  // The navigation's views, and the sandbox's flask.
  gauge: 'M2.5 11.5a5.5 5.5 0 0 1 11 0M8 11.5l2.75-3.5',
  key: 'M5.5 7.5a3 3 0 1 0 0 6a3 3 0 1 0 0-6zM7.6 8.4L13 3M11 5l1.5 1.5M9.5 6.5l1 1',
  rows: 'M2.5 3.5h11v9h-11zM2.5 6.5h11M2.5 9.5h11',
  layers: 'M8 2.5l5.5 3-5.5 3-5.5-3zM2.5 8.5l5.5 3 5.5-3',
  chip: 'M4.5 4.5h7v7h-7zM6.5 2.5v2M9.5 2.5v2M6.5 11.5v2M9.5 11.5v2M2.5 6.5h2M2.5 9.5h2M11.5 6.5h2M11.5 9.5h2',
  tag: 'M2.5 2.5h5l6 6-5 5-6-6zM5.5 5.25v.5',
  shield: 'M8 2l5 2v4c0 3-2.2 5-5 6-2.8-1-5-3-5-6V4zM5.75 8l1.5 1.5 3-3',
  code: 'M5.5 4.5L2 8l3.5 3.5M10.5 4.5L14 8l-3.5 3.5',
  server: 'M2.5 3h11v4h-11zM2.5 9h11v4h-11zM5 5h.5M5 11h.5',
  pulse: 'M1.5 8.5h3l2-5 3 9 2-4h3',
  people:
    'M6 3a2.25 2.25 0 1 0 0 4.5a2.25 2.25 0 1 0 0-4.5zM2 13c0-2.5 1.8-4 4-4s4 1.5 4 4M11 3.5a2 2 0 0 1 0 4M12 9.25c1.4.4 2.25 1.7 2.25 3.75',
  upload: 'M8 11V3M4.75 6.25L8 3l3.25 3.25M3 13h10',
  flask: 'M6 2.5h4M6.75 2.5v4L3 13.5h10L9.25 6.5v-4M4.5 10.5h7',
  sliders: 'M2.5 4.5h11M2.5 8h11M2.5 11.5h11M6 3v3M10.5 6.5v3M5 10v3',
} as const;
export type IconName = keyof typeof PATHS;

export function Icon({ name, className }: { name: IconName; className?: string }) {
  const filled = name === 'dot' || name === 'star';
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={filled ? 1 : 1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
