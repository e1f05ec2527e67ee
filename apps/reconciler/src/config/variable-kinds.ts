import { isIP } from 'node:net';
import { parseDuration, parseDurationList } from './durations';

// The kinds of value an environment variable may hold. Each builder makes one declaration of `variables.ts`:
// how its text is read, the rule a bad value breaks (the message says "<NAME> <problem>", never the value), and
// what the README's table shows (kind, default, meaning).

/** The groups of the README's table, in its order. */
export const TOPICS = {
  bank: 'The bank',
  sending: 'What is sent',
  limits: 'Limits and approvals',
  schedule: 'Scheduled transfers',
  pace: 'Polling, bank calls and the sweep',
  database: 'The database',
  server: 'The HTTP server',
  webhooks: 'Webhooks',
  security: 'Certificates and secrets at rest',
} as const;
export type Topic = keyof typeof TOPICS;

/** A value read from its text, or what is wrong with the text (said without it). */
export type Reading<T> = { value: T } | { problem: string };

/** What every declaration says about its variable, whatever its kind. */
export interface About {
  topic: Topic;
  /** One line for the README's table (Markdown). */
  doc: string;
  /** What an unset variable means, for the README, when it has no default value of its own (Markdown). */
  unset?: string;
}

export interface Variable<T> extends About {
  /** The kind's name as the README shows it, with its bounds: `ms, 100 … 600000`, `https URL`… */
  kind: string;
  read(text: string): Reading<T>;
  /** The value when unset; then the typed environment always has one. */
  default?: T;
  /** Its value is a credential: never printed, never a default. */
  secret?: true;
}

/** The type of a variable's value in the typed environment: defaulted ones are always there. */
export type ValueOf<V> = V extends Variable<infer T> ? (V extends { default: T } ? T : T | undefined) : never;

type WithDefault<T, O> = O extends { default: T } ? { default: T } : unknown;

function makeVariable<T, O extends About & { default?: T }>(
  options: O,
  kind: string,
  read: (text: string) => Reading<T>,
): Variable<T> & WithDefault<T, O> {
  return { ...options, kind, read } as Variable<T> & WithDefault<T, O>;
}

const must = (rule: string) => ({ problem: `must be ${rule}` });

/**
 * Text whose rule lives where it is used (a header name, a path prefix, a database URL…: the bank client's or the
 * module's rules check it after the reading, naming the variable); `kind` says what it is in the README.
 */
export function text<const O extends About & { kind?: string; default?: string }>(options: O) {
  return makeVariable<string, O>(options, options.kind ?? 'text', (value) => ({ value }));
}

/** A file's path; the file is read and checked before the start, where it is used. */
export function file<const O extends About>(options: O) {
  return makeVariable<string, O>(options, 'file', (value) => ({ value }));
}

/** A credential: never printed, never in a message, never defaulted. */
export function secret<const O extends About & { minLength?: number }>(options: O) {
  const { minLength } = options;
  const variable = makeVariable<string, O>(
    options,
    minLength === undefined ? 'secret' : `secret, ≥ ${minLength} characters`,
    (value) =>
      minLength !== undefined && value.length < minLength
        ? { problem: `must be at least ${minLength} characters long` }
        : { value },
  );
  return { ...variable, secret: true as const };
}

interface UrlOptions extends About {
  protocol: 'https' | 'http';
  /** The rule as said in a message, when "an https URL" is not enough. */
  what?: string;
  example?: string;
}

/** An absolute URL of one protocol, with a host. */
export function url<const O extends UrlOptions>(options: O) {
  const rule = `${options.what ?? `an ${options.protocol} URL`}${options.example ? `, e.g. ${options.example}` : ''}`;
  return makeVariable<string, O>(options, `${options.protocol} URL`, (value) => {
    if (!value.toLowerCase().startsWith(`${options.protocol}://`)) return must(rule);
    try {
      return new URL(value).hostname === '' ? must(rule) : { value };
    } catch {
      return must(rule);
    }
  });
}

interface IntegerOptions extends About {
  /** What is counted, as a message says it (`milliseconds`, `bank calls`…); absent: "an integer". */
  unit?: string;
  min?: number;
  max?: number;
  default?: number;
}

function boundsText(min: number | undefined, max: number | undefined, separator: string): string {
  if (min !== undefined && max !== undefined) return `${min}${separator}${max}`;
  if (min !== undefined) return `≥ ${min}`;
  return max === undefined ? '' : `≤ ${max}`;
}

function readInteger(options: IntegerOptions): (text: string) => Reading<number> {
  const { unit, min, max } = options;
  const bounds = min !== undefined && max !== undefined ? `between ${min} and ${max}` : boundsText(min, max, '');
  const rule = `${unit === undefined ? 'an integer' : `a whole number of ${unit}`}${bounds === '' ? '' : ` ${bounds}`}`;
  return (text) => {
    const value = text.trim() === '' ? Number.NaN : Number(text);
    const inside = (min === undefined || value >= min) && (max === undefined || value <= max);
    return Number.isSafeInteger(value) && inside ? { value } : must(rule);
  };
}

/** A whole number within its bounds. */
export function integer<const O extends IntegerOptions>(options: O) {
  const bounds = boundsText(options.min, options.max, ' … ');
  return makeVariable<number, O>(options, `integer${bounds && `, ${bounds}`}`, readInteger(options));
}

/** A whole number of milliseconds within its bounds. */
export function ms<const O extends Omit<IntegerOptions, 'unit'>>(options: O) {
  const bounds = boundsText(options.min, options.max, ' … ');
  return makeVariable<number, O>(
    options,
    `ms${bounds && `, ${bounds}`}`,
    readInteger({ ...options, unit: 'milliseconds' }),
  );
}

interface NumberOptions extends About {
  unit: string;
  /** The value must be greater than this. */
  above: number;
  example: string;
}

/** A finite decimal number above a bound (`0.5`, `20`). */
export function decimal<const O extends NumberOptions>(options: O) {
  const rule = `a number of ${options.unit} > ${options.above}, e.g. ${options.example}`;
  return makeVariable<number, O>(options, `number, > ${options.above}`, (text) => {
    const value = text.trim() === '' ? Number.NaN : Number(text);
    return Number.isFinite(value) && value > options.above ? { value } : must(rule);
  });
}

/** `true` or `false`. */
export function boolean<const O extends About & { default?: boolean }>(options: O) {
  return makeVariable<boolean, O>(options, '`true` or `false`', (text) =>
    text === 'true' || text === 'false' ? { value: text === 'true' } : must('true or false'),
  );
}

/** One of a few words. */
export function oneOf<const Values extends readonly string[], const O extends About & { default?: Values[number] }>(
  values: Values,
  options: O,
) {
  const rule = values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
  return makeVariable<Values[number], O>(
    options,
    `one of ${values.map((value) => `\`${value}\``).join(', ')}`,
    (text) => (values.includes(text) ? { value: text as Values[number] } : must(rule)),
  );
}

/** A decimal amount as text (`50000.00`), blanks around it dropped; the module's amount rules check it. */
export function amount<const O extends About>(options: O) {
  return makeVariable<string, O>(options, 'amount', (text) => ({ value: text.trim() }));
}

/** A comma-separated list, each item trimmed (an empty item stays, for its rule to name it). */
export function list<const O extends About>(options: O) {
  return makeVariable<string[], O>(options, 'list', (text) => ({ value: text.split(',').map((item) => item.trim()) }));
}

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Days `YYYY-MM-DD`, separated by commas. */
export function dayList<const O extends About>(options: O) {
  return makeVariable<string[], O>(options, 'list of days, YYYY-MM-DD', (text) => {
    const days = text.split(',').map((item) => item.trim());
    const real = (day: string) => DAY.test(day) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
    return days.every(real) ? { value: days } : must('a list of days YYYY-MM-DD separated by commas');
  });
}

/** A time of day, `HH:MM` (24 hours). */
export function timeOfDay<const O extends About & { default?: string }>(options: O) {
  return makeVariable<string, O>(options, 'time of day, HH:MM', (text) =>
    /^([01]\d|2[0-3]):[0-5]\d$/.test(text) ? { value: text } : must('a time of day HH:MM, from 00:00 to 23:59'),
  );
}

const TIME = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;

/** A daily window, `HH:MM-HH:MM` (24 hours; the closing may be `24:00`), the opening before the closing. */
export function timeRange<const O extends About>(options: O) {
  return makeVariable<string, O>(options, 'time range, HH:MM-HH:MM', (text) => {
    const [open, close, ...rest] = text.split('-');
    const minute = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
    if (rest.length > 0 || close === undefined || !TIME.test(open) || !TIME.test(close)) {
      return must('a range of times HH:MM-HH:MM, like 08:00-20:00');
    }
    return minute(open) < minute(close) ? { value: text } : must('a range whose opening comes before its closing');
  });
}

/** Whole numbers from 1 to `maxWeight` by key, `key:number,…` (`keyRule` says what a key must be). */
export function weightList<const O extends About & { maxWeight: number; key: RegExp; keyRule: string }>(options: O) {
  return makeVariable<Record<string, number>, O>(options, `list of key:weight, 1 … ${options.maxWeight}`, (text) => {
    const weights: Record<string, number> = {};
    for (const item of text.split(',').map((part) => part.trim())) {
      const [key, weight, ...rest] = item.split(':');
      if (rest.length > 0 || weight === undefined || !options.key.test(key)) {
        return must(`a list of ${options.keyRule}:weight separated by commas`);
      }
      if (!/^\d+$/.test(weight) || Number(weight) < 1 || Number(weight) > options.maxWeight) {
        return must(`a list whose weights are whole numbers from 1 to ${options.maxWeight}`);
      }
      weights[key] = Number(weight);
    }
    return { value: weights };
  });
}

const DURATION_FORMAT = 'a whole number with a unit (ms, s, m, h, d) or of milliseconds';

interface DurationOptions extends About {
  /** Bounds, written as durations (`1h`, `3650d`). */
  min?: string;
  max?: string;
  example: string;
}

/** A duration (`500ms`, `5s`, `2m`, `3h`, `1d`, or a bare number of milliseconds), read as milliseconds. */
export function duration<const O extends DurationOptions>(options: O) {
  const { min, max, example } = options;
  const [low, high] = [min, max].map((bound) => (bound === undefined ? undefined : (parseDuration(bound) as number)));
  const rule =
    min !== undefined && max !== undefined
      ? `a duration from ${min} to ${max}, ${DURATION_FORMAT}, e.g. ${example}`
      : `a duration like ${example}`;
  return makeVariable<number, O>(options, `duration${min && max ? `, ${min} … ${max}` : ''}`, (text) => {
    const value = parseDuration(text);
    const inside = value !== undefined && (low === undefined || value >= low) && (high === undefined || value <= high);
    return inside ? { value } : must(rule);
  });
}

interface DurationListOptions extends DurationOptions {
  min: string;
  max: string;
  maxItems: number;
}

/** A comma-separated list of durations, each within its bounds; a problem names the item. */
export function durations<const O extends DurationListOptions>(options: O) {
  const { min, max, maxItems, example } = options;
  const [low, high] = [min, max].map((bound) => parseDuration(bound) as number);
  const rule = `a comma-separated list of at most ${maxItems} waits between ${min} and ${max}, each ${DURATION_FORMAT}, e.g. ${example}`;
  return makeVariable<number[], O>(options, `durations, ${min} … ${max}, ≤ ${maxItems}`, (text) => {
    const parsed = parseDurationList(text);
    if (!parsed.ok) return { problem: `item ${parsed.item} is not a duration: ${rule}` };
    const outside = parsed.ms.findIndex((value) => value < low || value > high);
    if (outside >= 0) return { problem: `item ${outside + 1} is out of range: ${rule}` };
    if (parsed.ms.length > maxItems) return { problem: `has ${parsed.ms.length} waits: ${rule}` };
    return { value: parsed.ms };
  });
}

const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** An address to listen on: an IP address or a host name. */
export function listenAddress<const O extends About & { default?: string }>(options: O) {
  return makeVariable<string, O>(options, 'address', (value) =>
    isIP(value) !== 0 || HOST_NAME.test(value)
      ? { value }
      : must('an IP address or a host name to listen on, e.g. 127.0.0.1, or 0.0.0.0 for every interface'),
  );
}
