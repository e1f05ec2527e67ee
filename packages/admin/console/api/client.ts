import { type Query, queryString } from './query';
import type { Violation } from './types';

/** An answer of the admin API other than 2xx, with what the console shows of it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The refusal's name (`ApprovalExpiredError`, …) when the admin API gave one. */
    readonly errorName: string | undefined,
    /** The refusal's code (`APPROVAL_EXPIRED`, …: docs/errors.md), when the answer is the admin API's. */
    readonly code: string | undefined,
    /** The fields at fault (400, 422), as the admin API names them. */
    readonly violations: Violation[],
    /** A 429's wait: the polling rule's (`Retry-After`), or the rate limit's. */
    readonly retryAfterSeconds: number | undefined,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/**
 * The admin API with the signed-in key as the bearer credential. Paths are relative to the page (`/console`), so
 * `admin/…` is this origin's `/admin/…` wherever the host mounted both. A 401 signs the console out.
 */
export class ApiClient {
  constructor(
    private readonly key: string,
    private readonly onUnauthorized: () => void = () => undefined,
  ) {}

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', `${path}${queryString(query)}`);
  }

  post<T>(path: string, body?: unknown, query?: Query): Promise<T> {
    return this.request<T>('POST', `${path}${queryString(query)}`, body === undefined ? undefined : json(body));
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, json(body));
  }

  delete(path: string): Promise<void> {
    return this.request<void>('DELETE', path);
  }

  /** A POST of a file's bytes as they are (a CSV file in whatever encoding, a workbook): the server decodes them. */
  postFile<T>(path: string, file: Blob, contentType: string, query?: Query): Promise<T> {
    return this.request<T>('POST', `${path}${queryString(query)}`, { body: file, contentType });
  }

  /** A GET whose answer is a file: a link cannot carry the bearer key, so it is fetched and handed over as a Blob. */
  async blob(path: string, query?: Query): Promise<Blob> {
    const response = await this.fetch('GET', `${path}${queryString(query)}`);
    return response.blob();
  }

  private async request<T>(method: string, path: string, body?: RequestBody): Promise<T> {
    const response = await this.fetch(method, path, body);
    const text = await response.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  private async fetch(method: string, path: string, body?: RequestBody): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.key}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = body.contentType;
    const response = await fetch(path, { method, headers, body: body?.body, cache: 'no-store' });
    if (response.ok) return response;
    const error = await apiErrorOf(response);
    if (error.status === 401) this.onUnauthorized();
    throw error;
  }
}

type RequestBody = { body: string | Blob; contentType: string };

function json(value: unknown): RequestBody {
  return { body: JSON.stringify(value), contentType: 'application/json' };
}

async function apiErrorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): the text is shown as the message.
  }
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message = typeof fields.message === 'string' ? fields.message : text || response.statusText;
  const errorName = typeof fields.errorName === 'string' ? fields.errorName : undefined;
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const violations = Array.isArray(fields.violations) ? (fields.violations as Violation[]) : [];
  const retryAfter = Number(response.headers.get('Retry-After'));
  return new ApiError(
    response.status,
    message,
    errorName,
    code,
    violations,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    body,
  );
}
