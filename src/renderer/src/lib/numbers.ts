// Numbers as a person types them into a form.

/**
 * A whole number written with digits only (spaces around allowed); anything else is NaN, so the shared rules
 * refuse it with their own words. `1e3`, `10.0`, `0x10` and `1,000` are never reinterpreted as a count.
 */
export function parseWhole(text: string): number {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}
