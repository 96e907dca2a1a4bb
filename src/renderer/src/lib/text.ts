/**
 * What a form says about a typed identifier (HWID, key value) before sending it. The service trims nothing
 * (wire.md "Parameters"), so a value is sent as typed: only blank is refused here, and spaces at either end are
 * pointed out so the person keeps them knowingly.
 */
export type TypedShape = 'blank' | 'padded' | 'plain';

export function typedShape(value: string): TypedShape {
  if (value.trim() === '') return 'blank';
  return value.trim() === value ? 'plain' : 'padded';
}

/** The value with its ends made visible: “␠␠abc␠” reads as what will be sent. */
export function showEnds(value: string): string {
  const lead = value.length - value.trimStart().length;
  const trail = value.length - value.trimEnd().length;
  return `${'␠'.repeat(lead)}${value.trim()}${'␠'.repeat(trail)}`;
}

/** The words beside a field whose value starts or ends with whitespace. */
export function paddedWarning(label: string): string {
  return `The ${label} starts or ends with a space. The service keeps spaces as typed, so it will not match the same ${label} without them.`;
}

/** What a search with nothing typed in it says, beside the box (it asks the service nothing). */
export const BLANK_SEARCH = 'Type a key, HWID or note to search.';
