// Numbers as a person types them into a form.

/** Digits only (spaces around allowed), else NaN for the shared rules to refuse: `1e3`, `10.0`, `0x10`, `1,000` are not counts. */
export const parseWhole = (text: string): number => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);
