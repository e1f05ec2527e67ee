import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_LEDGER_PAGE } from '../ledger/ledger';
import { statementCsv } from '../ledger/statement';
import {
  BodyTooLargeError,
  errorReply,
  type JsonReply,
  parseJson,
  readBody,
  sendJson,
  sendText,
} from '../server/http-io';
import type { SandboxState } from '../server/sandbox-state';
import { seedMovements } from './seed-movements';

export const CONTROL_PREFIX = '/__sandbox/';

/**
 * The inspection and control surface. Mutual TLS only (no token, no HMAC): it is for tests and
 * operators of the sandbox, never part of the bank's API.
 */
export async function handleControlRequest(
  state: SandboxState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'https://sandbox.invalid');
  if (request.method === 'GET' && url.pathname === `${CONTROL_PREFIX}statement`) {
    const reply = statementReply(state, url.searchParams);
    if ('text' in reply) sendText(response, 200, reply.text, { 'content-type': 'text/csv; charset=utf-8' });
    else sendJson(response, reply);
    return;
  }
  sendJson(response, await controlReply(state, request));
}

/** `GET /__sandbox/statement?date=YYYY-MM-DD&account=`: the day's statement as CSV (ledger/statement.ts). */
function statementReply(state: SandboxState, query: URLSearchParams): JsonReply | { text: string } {
  const day = query.get('date') ?? '';
  const account = query.get('account') ?? undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
    return errorReply(400, 'INVALID_QUERY', 'date must be a day YYYY-MM-DD');
  }
  if (account !== undefined && !/^[0-9]{22}$/.test(account)) {
    return errorReply(400, 'INVALID_QUERY', 'account must be a CBU or CVU of 22 digits');
  }
  return { text: statementCsv(state.ledger, day, state.clock.now().getTime(), account) };
}

async function controlReply(state: SandboxState, request: IncomingMessage): Promise<JsonReply> {
  const url = new URL(request.url ?? '/', 'https://sandbox.invalid');
  const route = `${request.method} ${url.pathname.slice(CONTROL_PREFIX.length)}`;
  switch (route) {
    case 'GET ledger':
      return ledgerReply(state, url.searchParams);
    case 'GET counters':
      return { status: 200, body: state.counters.snapshot() };
    case 'GET config':
      return { status: 200, body: state.config };
    case 'POST config': {
      const body = await readJsonBody(state, request);
      if ('status' in body) return body;
      const result = state.configure(body.value);
      if (!result.ok) {
        return errorReply(400, 'INVALID_CONFIG', result.violations.map((v) => v.message).join('; '), {
          violations: result.violations,
        });
      }
      return { status: 200, body: result.config };
    }
    case 'POST seed': {
      const body = await readJsonBody(state, request);
      return 'status' in body ? body : seedMovements(state, body.value);
    }
    case 'POST reset':
      state.reset();
      return { status: 200, body: { reset: true } };
    default:
      return errorReply(404, 'NOT_FOUND', `no control route ${route}`);
  }
}

function ledgerReply(state: SandboxState, query: URLSearchParams): JsonReply {
  const originId = query.get('originId');
  if (originId !== null) {
    const entry = /^[1-9][0-9]{0,15}$/.test(originId) ? state.ledger.entry(Number(originId)) : undefined;
    return entry
      ? { status: 200, body: { total: 1, entries: [entry] } }
      : errorReply(404, 'NOT_IN_LEDGER', `originId ${originId} was never processed`);
  }
  const cursor = readCount(query.get('cursor'), 0, Number.MAX_SAFE_INTEGER);
  const limit = readCount(query.get('limit'), 1, MAX_LEDGER_PAGE);
  if (cursor === null || limit === null) {
    return errorReply(400, 'INVALID_QUERY', `cursor must be an integer ≥ 0 and limit between 1 and ${MAX_LEDGER_PAGE}`);
  }
  return { status: 200, body: state.ledger.page({ cursor, limit }) };
}

/** The integer in `text` within [min, max]; undefined when absent; null when invalid. */
function readCount(text: string | null, min: number, max: number): number | undefined | null {
  if (text === null) return undefined;
  const value = Number(text);
  return /^[0-9]+$/.test(text) && value >= min && value <= max ? value : null;
}

async function readJsonBody(state: SandboxState, request: IncomingMessage): Promise<JsonReply | { value: unknown }> {
  try {
    const parsed = parseJson(await readBody(request, state.maxBodyBytes));
    return parsed.ok ? { value: parsed.value } : errorReply(400, 'INVALID_JSON', 'the body is not valid JSON');
  } catch (error) {
    if (error instanceof BodyTooLargeError) return errorReply(413, 'PAYLOAD_TOO_LARGE', error.message);
    throw error;
  }
}
