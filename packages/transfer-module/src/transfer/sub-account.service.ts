import { Inject, Injectable } from '@nestjs/common';
import { cbuCvuProblem, cuitProblem, isCvu, type TransferParty, typeProblem, type Violation } from '../domain';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import { MovementStore, type SubAccountRecord } from '../persistence';
import { PspModeRequiredError, TransferValidationError } from './transfer.errors';

/** A registered client sub-account, as the admin API shows it. */
export interface SubAccountView {
  address: string;
  ownerPersonId: string;
  ownerName: string | null;
  /** False once disabled: no transfer may be sent from it. */
  enabled: boolean;
  createdAt: string;
  disabledAt: string | null;
}

const MAX_OWNER_NAME_LENGTH = 200;
const REGISTRATION_FIELDS = ['address', 'ownerPersonId', 'ownerName'];

/**
 * PSP mode (`psp: true`): a payment service provider registered with the central bank may also send from the
 * virtual sub-accounts (CVU) of its own clients (docs/bank-api.md, "What the service does"), which it registers
 * here. Without PSP mode every call is refused (PspModeRequiredError): that use is reserved to such providers.
 */
@Injectable()
export class SubAccountService {
  constructor(
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: ResolvedTransferOptions,
    @Inject(MovementStore) private readonly store: MovementStore,
  ) {}

  /**
   * Registers a client's sub-account `{ address, ownerPersonId, ownerName? }` (a CVU and its holder's CUIT), or
   * enables it again. TransferValidationError names each bad field; SubAccountConflictError when the address is
   * registered to another holder.
   */
  async registerSubAccount(input: unknown): Promise<SubAccountView> {
    this.assertPsp();
    const registration = readRegistration(input);
    return toSubAccountView(await this.store.registerSubAccount(registration));
  }

  /** Every registered sub-account, by address, disabled ones included. */
  async listSubAccounts(): Promise<SubAccountView[]> {
    this.assertPsp();
    return (await this.store.listSubAccounts()).map(toSubAccountView);
  }

  /** No transfer may be sent from it any more (idempotent). SubAccountNotFoundError when none is registered. */
  async disableSubAccount(address: string): Promise<SubAccountView> {
    this.assertPsp();
    const problem = explainSubAccountAddress(address);
    if (problem !== undefined) throw new TransferValidationError([problem]);
    return toSubAccountView(await this.store.disableSubAccount(address));
  }

  private assertPsp(): void {
    if (!this.options.psp) throw new PspModeRequiredError();
  }
}

/**
 * Why `from` may not send, unless it is an enabled client sub-account registered to its holder: for a transfer
 * whose `from` is not one of the entity's own accounts, in PSP mode. Undefined when it may.
 */
export async function subAccountSenderRefusal(
  store: MovementStore,
  from: TransferParty,
): Promise<TransferValidationError | undefined> {
  const account = await store.findSubAccount(from.address);
  if (account === null || account.disabledAt !== null) {
    return new TransferValidationError([
      {
        field: 'from.address',
        rule: 'source_account',
        params: { subAccount: account !== null },
        message: `is neither one of this entity's source accounts nor a client sub-account registered${account ? ' and enabled' : ''} in PSP mode`,
      },
    ]);
  }
  if (account.ownerPersonId !== from.owner.personId) {
    return new TransferValidationError([
      {
        field: 'from.owner.personId',
        rule: 'source_account_owner',
        params: { address: from.address },
        message: `is not the holder of client sub-account ${from.address}`,
      },
    ]);
  }
  return undefined;
}

function readRegistration(input: unknown) {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TransferValidationError([
      {
        field: '',
        rule: 'type',
        ...typeProblem('object', input),
        message: 'must be an object { address, ownerPersonId, ownerName? }',
      },
    ]);
  }
  const fields = input as Record<string, unknown>;
  const violations: Violation[] = Object.keys(fields)
    .filter((key) => !REGISTRATION_FIELDS.includes(key))
    .map((key) => ({
      field: key,
      rule: 'unknown_field',
      params: { allowed: REGISTRATION_FIELDS },
      message: `is not a field (known: ${REGISTRATION_FIELDS.join(', ')})`,
    }));
  const address = explainSubAccountAddress(fields.address);
  if (address !== undefined) violations.push(address);
  const owner = fields.ownerPersonId;
  const ownerProblem =
    typeof owner === 'string'
      ? cuitProblem(owner)
      : { ...typeProblem('string', owner), message: 'must be a CUIT or CUIL (11 digits)' };
  if (ownerProblem !== undefined) violations.push({ field: 'ownerPersonId', rule: 'cuit', ...ownerProblem });
  const name = fields.ownerName ?? null;
  if (name !== null && (typeof name !== 'string' || name.length > MAX_OWNER_NAME_LENGTH || hasControlCharacter(name))) {
    violations.push({
      field: 'ownerName',
      rule: 'owner_name',
      params: { max: MAX_OWNER_NAME_LENGTH },
      message: `must be text of at most ${MAX_OWNER_NAME_LENGTH} characters without control characters`,
    });
  }
  if (violations.length > 0) throw new TransferValidationError(violations);
  return { address: fields.address as string, ownerPersonId: owner as string, ownerName: name as string | null };
}

/** C0 and C1 control characters: a holder's name is shown to operators, on one line. */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** Only a CVU (a virtual account, entity 000) can be a client's sub-account. */
function explainSubAccountAddress(address: unknown): Violation | undefined {
  if (typeof address !== 'string') {
    return { field: 'address', rule: 'cvu', ...typeProblem('string', address), message: 'must be a CVU (22 digits)' };
  }
  const problem = cbuCvuProblem(address);
  if (problem !== undefined) return { field: 'address', rule: 'cvu', ...problem };
  if (!isCvu(address)) {
    return {
      field: 'address',
      rule: 'cvu',
      params: { reason: 'cbu' },
      message: 'is a CBU: only a CVU (a virtual account) can be a client sub-account',
    };
  }
  return undefined;
}

function toSubAccountView(record: SubAccountRecord): SubAccountView {
  return {
    address: record.address,
    ownerPersonId: record.ownerPersonId,
    ownerName: record.ownerName,
    enabled: record.disabledAt === null,
    createdAt: record.createdAt.toISOString(),
    disabledAt: record.disabledAt === null ? null : record.disabledAt.toISOString(),
  };
}
