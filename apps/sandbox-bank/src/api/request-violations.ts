/** One reason a request was refused, with the error code the bank answers for it. */
export interface RequestViolation {
  field: string;
  code: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; violations: RequestViolation[] };

export type JsonObject = Record<string, unknown>;

const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Collects violations while reading a JSON body, so one answer lists every problem. */
export class RequestReader {
  readonly violations: RequestViolation[] = [];

  add(field: string, code: string, message: string): undefined {
    this.violations.push({ field, code, message });
    return undefined;
  }

  /** The value at `field` when present (not undefined or null), else a MISSING_FIELD violation. */
  required(field: string, value: unknown): unknown {
    if (value === undefined || value === null) return this.add(field, 'MISSING_FIELD', `${field} is required`);
    return value;
  }

  object(field: string, value: unknown): JsonObject | undefined {
    if (this.required(field || 'body', value) === undefined) return undefined;
    if (typeof value === 'object' && !Array.isArray(value)) return value as JsonObject;
    return this.add(field, 'INVALID_TYPE', `${field || 'the body'} must be a JSON object, got ${describe(value)}`);
  }

  string(field: string, value: unknown): string | undefined {
    if (this.required(field, value) === undefined) return undefined;
    if (typeof value === 'string') return value;
    return this.add(field, 'INVALID_TYPE', `${field} must be a string, got ${describe(value)}`);
  }

  /** A string that must equal `expected`; `code` names the rule broken otherwise. */
  literal(field: string, value: unknown, expected: string, code: string): string | undefined {
    const text = this.string(field, value);
    if (text === undefined || text === expected) return text;
    return this.add(field, code, `${field} must be ${JSON.stringify(expected)}, got ${JSON.stringify(text)}`);
  }

  result<T>(value: () => T): Validated<T> {
    return this.violations.length ? { ok: false, violations: this.violations } : { ok: true, value: value() };
  }
}
