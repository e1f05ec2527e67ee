/** How a repeated originId on transfer-request is answered (it is never processed again either way). */
export const DUPLICATE_MODES = ['return-existing', 'conflict'] as const;
export type DuplicateMode = (typeof DUPLICATE_MODES)[number];

/** How long a movement stays in each non-final state. Snapshotted per movement at creation. */
export interface ScenarioTimings {
  /** CREATED → IN_PROGRESS. */
  createdMs: number;
  /** IN_PROGRESS → COMPLETED (or FAILED, or DELAYED). */
  inProgressMs: number;
  /** DELAYED → COMPLETED, for the `[delay]` scenario. */
  delayedMs: number;
}

/** The bank's polling rules (docs/bank-api.md#states-and-polling), which `pollsTooEarly` audits lookups against. */
export interface PollingRules {
  /** After an answer reporting CREATED or IN_PROGRESS, the next lookup must wait at least this long. */
  minIntervalMs: number;
  /** After an answer reporting DELAYED, the next lookup must wait strictly longer than this. */
  delayedMinIntervalMs: number;
}

/** Faults injected into the two API endpoints; each rate is a probability per request, their sum ≤ 1. */
export interface FaultSettings {
  /** Added before every API answer (real time, not the injected clock). */
  latencyMs: number;
  /** 500, not processed. */
  serverErrorRate: number;
  /** Connection destroyed before processing. */
  resetBeforeRate: number;
  /** Processed, then the connection is destroyed instead of answering. */
  resetAfterRate: number;
  /** Never answered (until the client gives up), not processed. */
  hangRate: number;
  /** Processed, answered 200 with a truncated JSON body. */
  malformedRate: number;
  /** 429 with `Retry-After`, not processed. */
  rateLimitRate: number;
  retryAfterSeconds: number;
}

/** The HMAC schemes the sandbox verifies (docs/bank-api.md#the-default-hmac-scheme and the section after it). */
export const HMAC_PRESETS = ['default', 'single-header'] as const;
export type HmacPreset = (typeof HMAC_PRESETS)[number];

/** Which HMAC scheme the API requires, the headers it reads, and the key id it requires (if any). */
export interface HmacScheme {
  preset: HmacPreset;
  /** The default preset's timestamp header. */
  timestampHeader: string;
  /** The signature header (`X-Signature` for the default preset; `Signature` is usual for `single-header`). */
  signatureHeader: string;
  /** The default preset's key id header. */
  keyIdHeader: string;
  /**
   * The key id the secret was issued under: when set, a request must name it (the default preset's key id
   * header, the `keyId=` field of `single-header`); null = key ids are not checked.
   */
  keyId: string | null;
}

/** Everything that can change at run time (`configure`, `POST /__sandbox/config`). */
export interface SandboxConfig {
  timings: ScenarioTimings;
  /** A lookup sooner than this after creation answers 404 (not registered yet). */
  registrationLagMs: number;
  duplicateMode: DuplicateMode;
  polling: PollingRules;
  faults: FaultSettings;
  hmac: HmacScheme;
  /** Seed of the fault PRNG; setting it restarts the sequence. */
  seed: number;
}

export type SandboxConfigPatch = {
  [K in keyof SandboxConfig]?: SandboxConfig[K] extends object ? Partial<SandboxConfig[K]> : SandboxConfig[K];
};

/** Defaults: a movement completes 8 s after creation; `[delay]` adds 15 minutes; the bank's polling rule; no faults. */
export const DEFAULT_SANDBOX_CONFIG: Readonly<SandboxConfig> = Object.freeze({
  timings: Object.freeze({ createdMs: 2_000, inProgressMs: 6_000, delayedMs: 900_000 }),
  registrationLagMs: 0,
  duplicateMode: 'return-existing',
  polling: Object.freeze({ minIntervalMs: 5_000, delayedMinIntervalMs: 600_000 }),
  faults: Object.freeze({
    latencyMs: 0,
    serverErrorRate: 0,
    resetBeforeRate: 0,
    resetAfterRate: 0,
    hangRate: 0,
    malformedRate: 0,
    rateLimitRate: 0,
    retryAfterSeconds: 1,
  }),
  hmac: Object.freeze({
    preset: 'default',
    timestampHeader: 'X-Timestamp',
    signatureHeader: 'X-Signature',
    keyIdHeader: 'X-Key-Id',
    keyId: null,
  }),
  seed: 1,
});

type FieldRule =
  | 'duration'
  | 'rate'
  | 'positive-seconds'
  | 'seed'
  | 'duplicate-mode'
  | 'hmac-preset'
  | 'header-name'
  | 'key-id';

const GROUPS = {
  timings: { createdMs: 'duration', inProgressMs: 'duration', delayedMs: 'duration' },
  polling: { minIntervalMs: 'duration', delayedMinIntervalMs: 'duration' },
  faults: {
    latencyMs: 'duration',
    serverErrorRate: 'rate',
    resetBeforeRate: 'rate',
    resetAfterRate: 'rate',
    hangRate: 'rate',
    malformedRate: 'rate',
    rateLimitRate: 'rate',
    retryAfterSeconds: 'positive-seconds',
  },
  hmac: {
    preset: 'hmac-preset',
    timestampHeader: 'header-name',
    signatureHeader: 'header-name',
    keyIdHeader: 'header-name',
    keyId: 'key-id',
  },
} as const satisfies Record<string, Record<string, FieldRule>>;

const SCALARS = {
  registrationLagMs: 'duration',
  duplicateMode: 'duplicate-mode',
  seed: 'seed',
} as const satisfies Record<string, FieldRule>;

const MAX_DURATION_MS = 365 * 86_400_000;

function explainValue(rule: FieldRule, value: unknown): string | undefined {
  switch (rule) {
    case 'duration':
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_DURATION_MS
        ? undefined
        : `must be an integer number of milliseconds between 0 and ${MAX_DURATION_MS}`;
    case 'rate':
      return typeof value === 'number' && value >= 0 && value <= 1 ? undefined : 'must be a number between 0 and 1';
    case 'positive-seconds':
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 86_400
        ? undefined
        : 'must be an integer number of seconds between 1 and 86400';
    case 'seed':
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0xffff_ffff
        ? undefined
        : 'must be an integer between 0 and 4294967295';
    case 'duplicate-mode':
      return (DUPLICATE_MODES as readonly unknown[]).includes(value)
        ? undefined
        : `must be one of ${DUPLICATE_MODES.join(', ')}`;
    case 'hmac-preset':
      return (HMAC_PRESETS as readonly unknown[]).includes(value)
        ? undefined
        : `must be one of ${HMAC_PRESETS.join(', ')}`;
    case 'header-name':
      return typeof value === 'string' && /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(value)
        ? undefined
        : 'must be an HTTP header name, e.g. X-Signature';
    case 'key-id':
      // Printable ASCII without a comma (the single-header preset separates its fields with commas), or null.
      return value === null || (typeof value === 'string' && /^[\x21-\x2b\x2d-\x7e]{1,200}$/.test(value))
        ? undefined
        : 'must be 1 to 200 printable ASCII characters without a comma or a space, or null (not checked)';
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A refused setting of the sandbox's control API: which, by which rule, and why. */
export interface SandboxViolation {
  field: string;
  rule: string;
  message: string;
}

export type ConfigPatchResult = { ok: true; config: SandboxConfig } | { ok: false; violations: SandboxViolation[] };

/**
 * `current` with `patch` applied, or every violation (field, rule, why) when the patch is not valid;
 * `current` is never modified.
 */
export function applyConfigPatch(current: SandboxConfig, patch: unknown): ConfigPatchResult {
  if (!isPlainObject(patch)) {
    return { ok: false, violations: [{ field: '', rule: 'type', message: 'the configuration must be a JSON object' }] };
  }
  const violations: SandboxViolation[] = [];
  const next = structuredClone(current) as unknown as Record<string, Record<string, unknown> | unknown>;

  for (const [key, value] of Object.entries(patch)) {
    if (key in GROUPS) {
      const rules = GROUPS[key as keyof typeof GROUPS] as Record<string, FieldRule>;
      if (!isPlainObject(value)) {
        violations.push({ field: key, rule: 'type', message: `${key} must be an object` });
        continue;
      }
      for (const [field, fieldValue] of Object.entries(value)) {
        const rule = rules[field];
        const problem = rule ? explainValue(rule, fieldValue) : `is not a known field of ${key}`;
        if (problem)
          violations.push({ field: `${key}.${field}`, rule: rule ?? 'unknown', message: `${key}.${field} ${problem}` });
        else (next[key] as Record<string, unknown>)[field] = fieldValue;
      }
    } else if (key in SCALARS) {
      const rule = SCALARS[key as keyof typeof SCALARS];
      const problem = explainValue(rule, value);
      if (problem) violations.push({ field: key, rule, message: `${key} ${problem}` });
      else next[key] = value;
    } else {
      violations.push({ field: key, rule: 'unknown', message: `${key} is not a sandbox setting` });
    }
  }

  const config = next as unknown as SandboxConfig;
  const rateSum = faultRateSum(config.faults);
  if (rateSum > 1 + 1e-9) {
    violations.push({
      field: 'faults',
      rule: 'rate-sum',
      message: `the fault rates add up to ${rateSum}, they must add up to at most 1`,
    });
  }
  const { hmac } = config;
  if (hmac.preset === 'default' && hmac.timestampHeader.toLowerCase() === hmac.signatureHeader.toLowerCase()) {
    violations.push({
      field: 'hmac.signatureHeader',
      rule: 'distinct-headers',
      message: 'hmac.signatureHeader must differ from hmac.timestampHeader',
    });
  }
  const keyIdHeader = hmac.keyIdHeader.toLowerCase();
  if (
    hmac.preset === 'default' &&
    [hmac.timestampHeader, hmac.signatureHeader].some((h) => h.toLowerCase() === keyIdHeader)
  ) {
    violations.push({
      field: 'hmac.keyIdHeader',
      rule: 'distinct-headers',
      message: 'hmac.keyIdHeader must differ from hmac.timestampHeader and hmac.signatureHeader',
    });
  }
  return violations.length ? { ok: false, violations } : { ok: true, config };
}

function faultRateSum(faults: FaultSettings): number {
  return (
    faults.serverErrorRate +
    faults.resetBeforeRate +
    faults.resetAfterRate +
    faults.hangRate +
    faults.malformedRate +
    faults.rateLimitRate
  );
}
