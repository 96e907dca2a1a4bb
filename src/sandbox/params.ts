// Reads request parameters exactly as wire.md decides: from the query string and the JSON body together,
// with one typed reading per parameter and a clear INVALID_INPUT for anything else.
import { charLength, isCalendarDate, isIntInRange, LIMITS } from '../shared/rules.ts';
import { invalid, WireError } from './errors.ts';

type Source = 'query' | 'body';
interface Occurrence {
  source: Source;
  value: unknown;
}

const QUERY_INT = /^[0-9]+$/;

export class Params {
  private readonly query: URLSearchParams;
  private readonly body: Record<string, unknown> | null;

  constructor(query: URLSearchParams, body: Record<string, unknown> | null) {
    this.query = query;
    this.body = body;
  }

  /** Every place a name was given, in order; `null` and empty strings count as not given. */
  private occurrences(name: string): Occurrence[] {
    const found: Occurrence[] = [];
    for (const value of this.query.getAll(name)) if (value !== '') found.push({ source: 'query', value });
    if (this.body && Object.hasOwn(this.body, name)) {
      const value = this.body[name];
      if (value !== null && value !== undefined && value !== '') found.push({ source: 'body', value });
    }
    return found;
  }

  /** Parses each occurrence; several occurrences must agree once parsed. */
  private read<T>(names: readonly string[], parse: (o: Occurrence, name: string) => T): T | undefined {
    let result: { value: T; name: string } | undefined;
    for (const name of names) {
      for (const o of this.occurrences(name)) {
        const value = parse(o, name);
        if (result !== undefined && result.value !== value) {
          throw invalid(
            result.name === name
              ? `${name} is given more than once with different values.`
              : `${result.name} and ${name} are both given, with different values.`,
          );
        }
        result = { value, name };
      }
    }
    return result?.value;
  }

  string(name: string, maxChars: number = LIMITS.textMaxChars): string | undefined {
    return this.read([name], ({ value }) => {
      if (typeof value !== 'string') throw invalid(`${name} must be a string.`);
      if (charLength(value) > maxChars) throw invalid(`${name} must be at most ${maxChars} characters.`);
      // SQLite's text functions and FTS5's query syntax end a string at NUL, so no search could be correct for it.
      // Every other control character is data like any other: stored, matched and searched exactly.
      if (value.includes('\u0000')) throw invalid(`${name} must not contain the NUL character (U+0000).`);
      return value;
    });
  }

  /** Like string(), but an empty string given counts as given: an edit may clear a note. */
  stringOrEmpty(name: string, maxChars: number): string | undefined {
    const value = this.string(name, maxChars);
    if (value !== undefined) return value;
    const empty = this.query.getAll(name).includes('') || (this.body !== null && this.body[name] === '');
    return empty ? '' : undefined;
  }

  /** A string with no length or character rule (only its type and agreement between places are checked). */
  text(name: string): string | undefined {
    return this.read([name], ({ value }) => {
      if (typeof value !== 'string') throw invalid(`${name} must be a string.`);
      return value;
    });
  }

  requiredString(name: string, maxChars: number = LIMITS.textMaxChars): string {
    return required(name, this.string(name, maxChars));
  }

  /** Whole numbers: JSON numbers with a whole value in a body, `^[0-9]+$` in a query string. */
  int(names: string | readonly string[], min: number, max: number): number | undefined {
    const list = typeof names === 'string' ? [names] : names;
    return this.read(list, ({ source, value }, name) => {
      const range = `a whole number from ${min} to ${max}`;
      let n: number;
      if (source === 'query') {
        if (typeof value !== 'string' || !QUERY_INT.test(value)) throw invalid(`${name} must be ${range}, written with digits only.`);
        n = Number(value);
      } else {
        if (typeof value !== 'number') throw invalid(`${name} must be ${range} (a JSON number, not a string).`);
        n = value;
      }
      if (!isIntInRange(n, min, max)) throw invalid(`${name} must be ${range}.`);
      return n;
    });
  }

  requiredInt(name: string, min: number, max: number): number {
    return required(name, this.int(name, min, max));
  }

  /** `true`/`false`, as JSON booleans or as the strings the official JS client sends. */
  bool(name: string): boolean | undefined {
    return this.read([name], ({ value }) => {
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      throw invalid(`${name} must be true or false.`);
    });
  }

  requiredBool(name: string): boolean {
    return required(name, this.bool(name));
  }

  requiredDate(name: string): string {
    const value = this.requiredString(name, 10);
    if (!isCalendarDate(value)) throw invalid(`${name} must be a real calendar date written YYYY-MM-DD.`);
    return value;
  }

  page(): { limit: number; offset: number } {
    return {
      limit: this.int('limit', LIMITS.pageLimitMin, LIMITS.pageLimitMax) ?? LIMITS.pageLimitDefault,
      offset: this.int('offset', 0, LIMITS.pageOffsetMax) ?? 0,
    };
  }
}

function required<T>(name: string, value: T | undefined): T {
  if (value === undefined) throw invalid(`${name} is required.`);
  return value;
}

/** No service's apiKey is longer (they are `kd_` and 43 characters); a longer one is looked up no further. */
const API_KEY_MAX_CHARS = 1_024;

/** The apiKey from wherever it was given; wire.md sets no form, so any unknown string is 401 API_KEY_INVALID. */
export function readApiKey(params: Params): string {
  const apiKey = params.text('apiKey');
  if (apiKey === undefined) {
    throw new WireError('API_KEY_MISSING', 'An apiKey is required: pass your service API key as the apiKey parameter.');
  }
  if (charLength(apiKey) > API_KEY_MAX_CHARS || apiKey.includes('\u0000')) {
    throw new WireError('API_KEY_INVALID', 'The apiKey is not valid for any service.');
  }
  return apiKey;
}
