import { isRecord, parseJson } from './json-value';

/** What a bank's error answer told us, if anything. */
export interface ErrorBody {
  code?: string;
  message?: string;
}

const MAX_CODE_LENGTH = 100;
const MAX_MESSAGE_LENGTH = 300;

/**
 * Reads an error answer tolerantly: JSON with `code`/`message`, OAuth2's `error`/`error_description`,
 * a nested `error` object, an `errors` array or RFC 7807 `detail`/`title`; else an HTML page's title or
 * the text itself; else nothing. The body is already bounded by the reader; the results are cut short too.
 */
export function parseErrorBody(body: Buffer): ErrorBody {
  const text = body.toString('utf8').trim();
  if (text === '') return {};
  const json = parseJson(text);
  if (isRecord(json)) return fromJson(json);
  if (text.startsWith('<')) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
    return title ? { message: clip(title, MAX_MESSAGE_LENGTH) } : {};
  }
  return { message: clip(text, MAX_MESSAGE_LENGTH) };
}

function fromJson(json: Record<string, unknown>): ErrorBody {
  const nested = isRecord(json.error)
    ? json.error
    : Array.isArray(json.errors) && isRecord(json.errors[0])
      ? json.errors[0]
      : {};
  const code = firstText(
    json.code,
    json.errorCode,
    typeof json.error === 'string' ? json.error : undefined,
    nested.code,
  );
  const message = firstText(
    json.message,
    json.error_description,
    json.errorMessage,
    nested.message,
    json.detail,
    json.title,
  );
  const result: ErrorBody = {};
  if (code !== undefined) result.code = clip(code, MAX_CODE_LENGTH);
  if (message !== undefined) result.message = clip(message, MAX_MESSAGE_LENGTH);
  return result;
}

function firstText(...values: unknown[]): string | undefined {
  for (const value of values) {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
