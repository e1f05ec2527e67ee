import { type Attributes, SpanKind } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import { explainOriginId, type TransferRequestWire } from '../domain';
import { httpClientAttributes, inSpan, markFailed } from '../domain/tracing';
import { BankMalformedAnswerError, type BankOperation } from './bank.errors';
import {
  type BankClientOptions,
  type ResolvedBankClientOptions,
  resolveBankClientOptions,
} from './bank-client.options';
import { createBankDispatcher } from './bank-dispatcher';
import { authHeaderInterceptor } from './bank-dispatcher-auth';
import { hmacSigningInterceptor } from './bank-dispatcher-hmac';
import { ExchangeFailure, type ExchangeResponse, exchange } from './bank-exchange';
import { errorFromFailure, errorFromStatus, type FailureContext } from './bank-failure';
import type { BankMovement } from './bank-movement';
import { findDuplicateWarning } from './duplicate-warning';
import { createHmacSigner } from './hmac-signer';
import { isRecord, parseJson } from './json-value';
import { lookupFields, type MovementLookup } from './movement-lookup';
import { type MovementExpectation, parseMovement } from './movement-parser';
import { OAuth2ClientCredentialsProvider } from './oauth2-token-provider';
import { SecretRedactor } from './secret-redactor';
import { SwappableDispatcher } from './swappable-dispatcher';
import { resolveTlsMaterial, type TlsMaterial } from './tls-material';
import { StaticTokenProvider, type TokenProvider } from './token-provider';

export interface CreateTransferResult {
  movement: BankMovement;
  /** The bank had already processed this originId and answered with the original movement. */
  duplicate: boolean;
  /** The bank's warning that marked the duplicate. */
  warning?: string;
}

/** What a caller of one bank call may ask to be told about it. */
export interface BankCallOptions {
  /**
   * Told each time a request of this call is written to the bank (a retry after a 401 too; never its token
   * requests): the bank budget counts a call's place in its rate from then (BankCallBudget).
   */
  onWritten?: () => void;
}

export interface GetMovementOptions extends BankCallOptions {
  /** Ask for the network's own format (docs/bank-api.md#get-a-movement); the answer is then returned unparsed. */
  getRawData?: boolean;
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/**
 * The bank's Outgoing Transfer Request API (docs/bank-api.md) over mutual TLS, signed and authenticated. Every
 * failure is a `BankError` subclass saying what the caller must do (see `bank.errors.ts`).
 *
 * Everything holding secrets (the dispatcher with the client key, the token provider) lives in private
 * fields, so printing or serialising the client shows none of it.
 */
export class BankClient {
  #options: ResolvedBankClientOptions;
  readonly #tlsInput: BankClientOptions['tls'];
  readonly #transport: SwappableDispatcher;
  readonly #api: Dispatcher;
  readonly #tokens: TokenProvider;
  readonly #redactor = new SecretRedactor();
  readonly #attributesByCall = new Map<string, Attributes>();

  constructor(options: BankClientOptions) {
    const resolved = resolveBankClientOptions(options);
    this.#options = resolved;
    this.#tlsInput = options.tls;
    this.#rememberSecrets(resolved);
    this.#transport = new SwappableDispatcher(createBankDispatcher(resolved));
    this.#tokens = this.#tokenProvider(resolved);
    const signing = resolved.hmac
      ? [
          hmacSigningInterceptor(
            resolved.hmac.kind === 'default' ? createHmacSigner(resolved.hmac.options) : resolved.hmac.signer,
            resolved.clock,
          ),
        ]
      : [];
    // compose() wraps in order: the token interceptor is outermost, signing next to the wire (its token fetch, on
    // the transport alone, is not a bank call).
    this.#api = this.#transport.compose(
      ...signing,
      authHeaderInterceptor(this.#tokens, resolved.auth.scheme, this.#redactor),
    );
  }

  /**
   * Create a transfer request (docs/bank-api.md#create-a-transfer-request). A repeated originId comes back as
   * `duplicate: true` (200 + warning) or a `BankConflictError` (409): see docs/bank-api.md#repeated-originids.
   */
  async createTransferRequest(
    request: TransferRequestWire,
    options: BankCallOptions = {},
  ): Promise<CreateTransferResult> {
    const problem = isRecord(request) ? explainOriginId(request.originId) : 'is missing (request is not an object)';
    if (problem) throw new TypeError(`createTransferRequest request.originId ${problem}`);
    const operation = 'create-transfer-request';
    const response = await this.#post(operation, this.#options.paths.transferRequest, request, options.onWritten);
    const answer = this.#json(operation, response);
    const movement = this.#movement(operation, answer, { originId: request.originId });
    const warning = isRecord(answer) ? findDuplicateWarning(answer, this.#options.duplicateWarningFields) : undefined;
    return warning === undefined
      ? { movement, duplicate: false }
      : { movement, duplicate: true, warning: this.#redactor.redact(warning) };
  }

  /**
   * Get a movement (docs/bank-api.md#get-a-movement) by exactly one of originId, networkId, debinId. "Not found"
   * is a `BankMovementNotFoundError`.
   */
  getMovement(lookup: MovementLookup, options?: BankCallOptions & { getRawData?: false }): Promise<BankMovement>;
  /** With `getRawData`, the answer is in the network's own shape: returned as parsed JSON, not checked. */
  getMovement(lookup: MovementLookup, options: BankCallOptions & { getRawData: true }): Promise<unknown>;
  getMovement(lookup: MovementLookup, options?: GetMovementOptions): Promise<BankMovement | unknown>;
  async getMovement(lookup: MovementLookup, options: GetMovementOptions = {}): Promise<BankMovement | unknown> {
    const fields = lookupFields(lookup, this.#options.debinIdField);
    const getRawData = options.getRawData === true;
    const operation = 'get-movement';
    // Added to this call's own `fields`, not to a spread copy: see answerPatch (movement/movement-plan.ts).
    const payload = Object.assign(fields, { getRawData });
    const response = await this.#post(operation, this.#options.paths.getMovement, payload, options.onWritten);
    const answer = this.#json(operation, response);
    if (getRawData) return answer;
    const expected: MovementExpectation = {};
    if ('originId' in lookup) expected.originId = lookup.originId;
    if ('networkId' in lookup) expected.networkId = lookup.networkId;
    return this.#movement(operation, answer, expected);
  }

  /** The mutual-TLS material new calls use (its key and passphrase wrapped as `Secret`s). */
  tlsMaterial(): TlsMaterial {
    return this.#options.tls;
  }

  /**
   * Reads the TLS options again (their files, when given as files) and makes new calls use them; calls in flight
   * finish on the previous connections, which close after them. Material that does not load (a file unreadable or
   * not PEM, a key not matching the certificate) throws a `BankOptionsError` saying why, and the current material
   * stays. `close()` waits for the previous connections too.
   */
  reloadTls(): TlsMaterial {
    const tls = resolveTlsMaterial(this.#tlsInput, 'bank.tls');
    this.#options = { ...this.#options, tls };
    this.#rememberSecrets(this.#options);
    this.#transport.replace(createBankDispatcher(this.#options));
    return tls;
  }

  /** Closes the pooled connections once the requests in flight are done. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  /**
   * One POST, and after a 401 exactly one more with a fresh token. The retry lives here rather than in
   * the token interceptor because this is where the whole request is known and may be sent again; the
   * interceptor only tells the provider which token the bank refused, and the retry passes through
   * both interceptors again (new token, new signature timestamp). A provider that cannot refresh
   * (a static token) gets no retry.
   */
  async #post(
    operation: BankOperation,
    path: string,
    payload: object,
    onWritten: (() => void) | undefined,
  ): Promise<ExchangeResponse> {
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    let response = await this.#send(operation, path, body, onWritten);
    if (response.status === 401 && this.#tokens.invalidate)
      response = await this.#send(operation, path, body, onWritten);
    if (response.status < 200 || response.status > 299)
      throw errorFromStatus(response, this.#failureContext(operation));
    return response;
  }

  /** One request, as an HTTP client span (method, server, the URL without its query, the status; never a body). */
  #send(
    operation: BankOperation,
    path: string,
    body: Buffer,
    onWritten: (() => void) | undefined,
  ): Promise<ExchangeResponse> {
    const { origin } = this.#options;
    return inSpan(
      'POST',
      { kind: SpanKind.CLIENT, attributes: this.#spanAttributes(operation, path) },
      async (span) => {
        try {
          const response = await exchange(
            this.#api,
            { origin, path, headers: { ...JSON_HEADERS }, body },
            this.#options.maxResponseBytes,
            onWritten,
          );
          span.setAttribute('http.response.status_code', response.status);
          if (response.status >= 400) markFailed(span, undefined, { 'error.type': String(response.status) });
          return response;
        } catch (error) {
          if (error instanceof ExchangeFailure) throw errorFromFailure(error, this.#failureContext(operation));
          throw error;
        }
      },
    );
  }

  /** A bank call's span attributes, made once per operation and path: a call pays no URL parsing for its span. */
  #spanAttributes(operation: BankOperation, path: string): Attributes {
    const key = `${operation} ${path}`;
    let attributes = this.#attributesByCall.get(key);
    if (attributes === undefined) {
      attributes = { ...httpClientAttributes(`${this.#options.origin}${path}`), 'giro.bank.operation': operation };
      this.#attributesByCall.set(key, attributes);
    }
    return attributes;
  }

  #json(operation: BankOperation, response: ExchangeResponse): unknown {
    const malformed = (why: string) =>
      new BankMalformedAnswerError(`${operation} answered HTTP ${response.status} with ${why}`, {
        operation,
        httpStatus: response.status,
      });
    if (response.truncated) throw malformed(`more than ${this.#options.maxResponseBytes} bytes`);
    const answer = parseJson(response.body.toString('utf8'));
    if (answer === undefined) throw malformed(response.body.length === 0 ? 'an empty body' : 'a body that is not JSON');
    return answer;
  }

  #movement(operation: BankOperation, answer: unknown, expected: MovementExpectation): BankMovement {
    const parsed = parseMovement(answer, expected);
    if (parsed.ok) return parsed.movement;
    const reasons = this.#redactor.redact(parsed.problems.map((p) => p.message).join('; '));
    throw new BankMalformedAnswerError(`${operation} answered with a malformed movement: ${reasons}`, {
      operation,
      httpStatus: 200,
    });
  }

  #failureContext(operation: BankOperation): FailureContext {
    return {
      operation,
      redact: (text) => this.#redactor.redact(text),
      duplicateCodes: new Set(this.#options.duplicateCodes),
      notFoundCodes: new Set(this.#options.notFoundCodes),
      now: this.#options.clock.now(),
    };
  }

  #tokenProvider(options: ResolvedBankClientOptions): TokenProvider {
    const { auth } = options;
    if (auth.kind === 'static') return new StaticTokenProvider(auth.token);
    if (auth.kind === 'provider') return auth.provider;
    return new OAuth2ClientCredentialsProvider(auth.credentials, {
      dispatcher: this.#transport,
      clock: options.clock,
      maxResponseBytes: options.maxResponseBytes,
      redactor: this.#redactor,
    });
  }

  #rememberSecrets({ tls, auth, hmac }: ResolvedBankClientOptions): void {
    const secrets = [tls.key, tls.passphrase];
    if (auth.kind === 'static') secrets.push(auth.token);
    if (auth.kind === 'oauth2') secrets.push(auth.credentials.clientSecret);
    if (hmac?.kind === 'default') secrets.push(hmac.options.secret);
    for (const secret of secrets) if (secret) this.#redactor.addConfigured(secret.reveal());
  }
}
