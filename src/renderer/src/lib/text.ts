/** What a form says about a typed identifier: the service trims nothing (wire.md), so only blank is refused, end spaces noted. */
export type TypedShape = 'blank' | 'padded' | 'plain';

export function typedShape(value: string): TypedShape {
  if (value.trim() === '') return 'blank';
  return value.trim() === value ? 'plain' : 'padded';
}

/** The spaces at a value's ends in words ("a space after it"): a glyph such as ␠ may not render and is not read aloud. */
export function endsInWords(value: string): string {
  const lead = value.length - value.trimStart().length;
  const trail = value.length - value.trimEnd().length;
  const spaces = (n: number) => (n === 1 ? 'a space' : `${n.toLocaleString()} spaces`);
  if (lead > 0 && trail > 0) return `${spaces(lead)} before it and ${spaces(trail)} after it`;
  return lead > 0 ? `${spaces(lead)} before it` : `${spaces(trail)} after it`;
}

/** The words beside a field whose value starts or ends with whitespace. */
export function paddedWarning(label: string): string {
  return `The ${label} starts or ends with a space. The service keeps spaces as typed, so it will not match the same ${label} without them.`;
}

/** What a search with nothing typed in it says, beside the box (it asks the service nothing). */
export const BLANK_SEARCH = 'Type a key, HWID or note to search.';

/** Activity's filter as sent: a term's surrounding spaces are not part of it, and spaces alone are no filter. */
export function activityFilter(
  text: string,
  outcome: string,
  profileId: string | null = null,
): { text?: string; outcome?: 'ok' | 'failed' | 'unknown'; profileId?: string } {
  const term = text.trim();
  return {
    ...(term ? { text: term } : {}),
    ...(outcome === 'ok' || outcome === 'failed' || outcome === 'unknown' ? { outcome } : {}),
    ...(profileId === null ? {} : { profileId }),
  };
}

/** Activity's service draft as a profile id: '' the active one, a service no longer listed the active one too; null for all. */
export function activityService(draft: string, activeProfileId: string | null, profiles: readonly { id: string }[]): string | null {
  if (draft === 'all') return null;
  return profiles.some((p) => p.id === draft) ? draft : activeProfileId;
}

/** Service text (a key, HWID or note) longer than this is cut on screen, before rendering, with a way to see it whole. */
export const SHOWN_CHARS = 200;

// Controls, format characters (bidi overrides, isolates, marks, zero-width), line separators and lone surrogates.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/** Service text as shown: each invisible or reordering character as a mark such as ⟨U+202E⟩. Copies keep the text. */
export function marked(text: string): string {
  return text.replace(HIDDEN, (c) => `⟨U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** Text laid out on lines (a JSON answer), each line's hidden characters marked; the layout's own line breaks stay. */
export const markedLines = (text: string): string => text.split('\n').map(marked).join('\n');

/** The first SHOWN_CHARS characters of a long text, never half of a surrogate pair. */
export function cutText(text: string): string {
  if (text.length <= SHOWN_CHARS) return text;
  const last = text.charCodeAt(SHOWN_CHARS - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? SHOWN_CHARS - 1 : SHOWN_CHARS);
}

/** Service text inside a sentence, label or title: cut, marked, and ending in "…" when cut. */
export const shownText = (text: string): string => `${marked(cutText(text))}${text.length > SHOWN_CHARS ? '…' : ''}`;
