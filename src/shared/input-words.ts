// Words for every input problem a schema does not word itself, so zod's defaults never reach a person.
import type { z } from 'zod';

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'yes or no (true or false)',
  array: 'a list',
  object: 'a set of fields',
  undefined: 'nothing',
};

const list = (values: readonly unknown[]): string => values.map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join(', ');
const amount = (n: number | bigint): string => (typeof n === 'number' ? n.toLocaleString('en-US') : n.toString());

/** A zod error map: a sentence for each kind of issue, with no field name (dispatch prefixes the path). */
export const inputIssueWords: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'undefined') return 'This operation takes no input.';
      if (issue.input === undefined || issue.input === null) return 'This is required.';
      return `Must be ${TYPE_WORDS[issue.expected] ?? issue.expected}.`;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? 'This is required.' : `Use at least ${amount(issue.minimum)} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Give at least ${amount(issue.minimum)}.`;
      return `Must be at least ${amount(issue.minimum)}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Use at most ${amount(issue.maximum)} characters.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Give at most ${amount(issue.maximum)}.`;
      return `Must be at most ${amount(issue.maximum)}.`;
    case 'invalid_format':
      return issue.format === 'uuid' || issue.format === 'guid'
        ? 'Must be an id Keydesk made (a UUID).'
        : 'This is not in the expected form.';
    case 'not_multiple_of':
      return `Must be a multiple of ${amount(issue.divisor)}.`;
    case 'unrecognized_keys':
      return `Keydesk does not know ${issue.keys.length === 1 ? 'the field' : 'the fields'} ${list(issue.keys)}.`;
    case 'invalid_value':
      return `Must be one of ${list(issue.values)}.`;
    case 'invalid_union':
      return 'This is not one of the accepted forms.';
    case 'invalid_key':
    case 'invalid_element':
      return 'A part of this is not valid.';
    default:
      return 'This value is not valid.';
  }
};

/** How a person names an input field: the form's label, never the contract's path ("filter.text", "hwid.custom"). */
const FIELD_LABELS: Record<string, string> = {
  keyValue: 'Key',
  keyValues: 'Keys',
  value: 'Value',
  hwid: 'HWID',
  custom: 'HWID',
  text: 'Filter',
  term: 'Search term',
  serviceIdentifier: 'Service identifier',
  baseUrl: 'Base URL',
  validationUrl: 'Validation URL',
  apiKey: 'API key',
  expire: 'Expiry date',
  daysKey: 'Days',
  days: 'Days',
  note: 'Note',
  count: 'Count',
  isPremium: 'Premium',
  name: 'Name',
  offset: 'Position',
  limit: 'Page size',
  ceiling: 'Requests at a time',
  outcome: 'Outcome',
};

/** The label for an issue's path: its last named field, as the form calls it ("Filter" for filter.text). */
export function fieldLabel(path: readonly PropertyKey[]): string | null {
  const last = [...path].reverse().find((p): p is string => typeof p === 'string');
  if (last === undefined) return null;
  const known = FIELD_LABELS[last];
  if (known) return known;
  const words = last.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One issue in words: a schema's own sentence as it is (it names its field), a generic one after the field's label. */
export function issueSentence(issue: { path: readonly PropertyKey[]; message: string }, generic: boolean): string {
  const label = generic ? fieldLabel(issue.path) : null;
  return label ? `${label}: ${issue.message}` : issue.message;
}
