import {
  type AccountLimitsOptions,
  type SourceAccount,
  SourceAccountLimits,
  type SourceAccountLimitsOptions,
} from '@giro/transfer-module';
import type { ReconcilerEnvironment } from './environment';

// The limits per source account from the environment: LIMIT_PER_TRANSFER, LIMIT_DAILY_AMOUNT and LIMIT_DAILY_COUNT
// for every account, SOURCE_ACCOUNT_LIMITS for some. Each value is checked by the module's own rules
// (SourceAccountLimits), and each problem names its variable.

const ACCOUNT_FORMAT =
  'comma-separated address:perTransfer/dailyAmount/dailyCount entries (a part left empty takes the default, "none" is no such limit), e.g. 0000003110000000000175:50000.00/1000000.00/100';

/** The default's variables, and the limit each one sets. */
const DEFAULT_VARIABLES = [
  ['LIMIT_PER_TRANSFER', 'perTransfer'],
  ['LIMIT_DAILY_AMOUNT', 'dailyAmount'],
  ['LIMIT_DAILY_COUNT', 'dailyCount'],
] as const;

const COUNT = /^[0-9]+$/;

/**
 * The module's `limits` option from the environment; undefined when no limit variable is set (no limits: nothing
 * is checked or counted). Outside PSP mode an account of SOURCE_ACCOUNT_LIMITS must be one of SOURCE_ACCOUNTS.
 * Problems are pushed to `problems`.
 */
export function limitsFromEnvironment(
  vars: ReconcilerEnvironment,
  sources: { accounts: SourceAccount[] | undefined; psp: boolean },
  problems: string[],
): SourceAccountLimitsOptions | undefined {
  const found = problems.length;
  const defaults: AccountLimitsOptions = {};
  for (const [variable, limit] of DEFAULT_VARIABLES) {
    const text = vars[variable]?.trim();
    if (text === undefined) continue;
    const value = limit === 'dailyCount' ? readCount(text) : text;
    const problem = explain({ default: { [limit]: value } });
    if (problem !== undefined) problems.push(`${variable} ${problem.replace(/^default\.\w+ /, '')}`);
    else Object.assign(defaults, { [limit]: value });
  }
  const accounts = accountsFromEnvironment(vars.SOURCE_ACCOUNT_LIMITS, sources, problems);
  if (problems.length > found) return undefined;
  const limits: SourceAccountLimitsOptions = {
    ...(Object.keys(defaults).length > 0 && { default: defaults }),
    ...(accounts && { accounts }),
  };
  return Object.keys(limits).length > 0 ? limits : undefined;
}

function accountsFromEnvironment(
  entries: string[] | undefined,
  sources: { accounts: SourceAccount[] | undefined; psp: boolean },
  problems: string[],
): Record<string, AccountLimitsOptions> | undefined {
  if (entries === undefined) return undefined;
  const accounts: Record<string, AccountLimitsOptions> = {};
  for (const [index, entry] of entries.entries()) {
    const name = `SOURCE_ACCOUNT_LIMITS entry ${index + 1}`;
    const [address, values, ...rest] = entry.split(':').map((part) => part.trim());
    const parts = values?.split('/').map((part) => part.trim());
    if (entry === '' || rest.length > 0 || parts === undefined || parts.length !== 3) {
      problems.push(
        `SOURCE_ACCOUNT_LIMITS must be ${ACCOUNT_FORMAT}; "${entry}" is not address:perTransfer/dailyAmount/dailyCount`,
      );
      return undefined;
    }
    if (address in accounts) {
      problems.push(`${name}: ${address} is listed twice`);
      return undefined;
    }
    const [perTransfer, dailyAmount, dailyCount] = parts;
    const limits: AccountLimitsOptions = {};
    if (perTransfer !== '') limits.perTransfer = perTransfer === 'none' ? null : perTransfer;
    if (dailyAmount !== '') limits.dailyAmount = dailyAmount === 'none' ? null : dailyAmount;
    // A count that is not written as a number reaches the module's rule as text, which refuses it by name.
    if (dailyCount !== '') limits.dailyCount = dailyCount === 'none' ? null : (readCount(dailyCount) as number);
    const problem = explain({ accounts: { [address]: limits } });
    if (problem !== undefined) {
      // "accounts.<address>.dailyAmount must be …" / "accounts.<address> is not an account: …"
      problems.push(`${name}: ${problem.replace(/^accounts\./, '')}`);
      return undefined;
    }
    if (sources.accounts !== undefined && !sources.psp && !sources.accounts.some((a) => a.address === address)) {
      problems.push(`${name}: ${address} is not one of SOURCE_ACCOUNTS (only they send outside PSP mode)`);
      return undefined;
    }
    accounts[address] = limits;
  }
  return accounts;
}

/** A count as a number when it is written as one; otherwise the text, for the module's rule to refuse it by name. */
function readCount(text: string): number | string {
  return COUNT.test(text) ? Number(text) : text;
}

function explain(options: SourceAccountLimitsOptions): string | undefined {
  try {
    SourceAccountLimits.from(options);
    return undefined;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return error.message;
  }
}
