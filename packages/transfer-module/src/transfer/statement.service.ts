import { Inject, Injectable } from '@nestjs/common';
import { cbuCvuProblem, typeProblem, type Violation } from '../domain';
import { RESOLVED_TRANSFER_OPTIONS, type ResolvedTransferOptions } from '../options';
import {
  MovementStore,
  type RecordedActor,
  type StatementImportRecord,
  type StatementItem,
  type StatementLineInput,
  StatementNotFoundError,
  type StatementReport,
} from '../persistence';
import { asValidation } from './store-argument-errors';
import { TransferValidationError } from './transfer.errors';

/** An import of a bank statement as the admin API answers it. */
export interface StatementImportView {
  id: string;
  account: string;
  sha256: string;
  periodFrom: string | null;
  periodTo: string | null;
  lines: number;
  counts: StatementImportRecord['counts'];
  createdAt: string;
  by: RecordedActor | null;
}

/** An import and the lines and transfers it names: confirmed, only in the statement, only in giro, other amount. */
export interface StatementReportView extends StatementImportView {
  matched: StatementItem[];
  onlyInStatement: StatementItem[];
  onlyInGiro: StatementItem[];
  amountMismatch: StatementItem[];
}

/**
 * The bank's statements matched against the transfers (two witnesses of every debit): an import's lines confirm
 * the transfers their references name (networkId, else originId), and what one witness lacks is raised as an
 * anomaly — `amount_mismatch` and `missing_in_statement` on the transfer, with its `transfer.anomaly` webhook;
 * `unknown_debit` on the line (no transfer to raise it on), in the import's `onlyInStatement`.
 */
@Injectable()
export class StatementService {
  constructor(
    @Inject(MovementStore) private readonly store: MovementStore,
    @Inject(RESOLVED_TRANSFER_OPTIONS) private readonly options: ResolvedTransferOptions,
  ) {}

  /** The account checked as a statement's: a CBU/CVU, one of the source accounts when they are configured. */
  checkAccount(account: unknown): string {
    const violation = accountViolation(account, this.options);
    if (violation !== undefined) throw new TransferValidationError([violation]);
    return account as string;
  }

  /** The import of this file (its sha-256) for this account, if there is one. */
  async findImport(account: string, sha256: string): Promise<StatementReportView | null> {
    const report = await this.store.findStatementImport(this.checkAccount(account), sha256);
    return report && toReportView(report);
  }

  /**
   * Imports a statement of `account` (lines in batches, in file order): answers the import of the same file when
   * there is one, storing nothing.
   */
  async importStatement(
    statement: { account: string; sha256: string; by: RecordedActor | null },
    batches: AsyncIterable<StatementLineInput[]>,
  ): Promise<StatementReportView> {
    const account = this.checkAccount(statement.account);
    const report = await this.store.importStatement(
      {
        account,
        sha256: statement.sha256,
        by: statement.by,
        calendar: this.options.schedule.calendar,
        graceDays: this.options.statementGraceDays,
      },
      batches,
    );
    return toReportView(report);
  }

  /** One import; StatementNotFoundError when no import has this id. */
  async getImport(id: string): Promise<StatementReportView> {
    const report = await this.store.getStatementImport(id);
    if (report === null) throw new StatementNotFoundError(id);
    return toReportView(report);
  }

  /** A page of imports, newest first. */
  async listImports(page: { limit: number; after?: string }): Promise<{
    items: StatementImportView[];
    nextCursor: string | null;
  }> {
    const result = await asValidation(() => this.store.listStatementImports(page));
    return { items: result.items.map(toImportView), nextCursor: result.nextCursor };
  }
}

function accountViolation(account: unknown, options: ResolvedTransferOptions): Violation | undefined {
  if (typeof account !== 'string') {
    return { field: 'account', rule: 'cbu_cvu', ...typeProblem('string', account), message: 'must be a CBU or CVU' };
  }
  const problem = cbuCvuProblem(account);
  if (problem) return { field: 'account', rule: 'cbu_cvu', ...problem };
  if (options.sourceAccounts !== undefined && !options.sourceAccounts.has(account)) {
    return {
      field: 'account',
      rule: 'source_account',
      params: { cvu: false },
      message: "is not one of this entity's source accounts (sourceAccounts)",
    };
  }
  return undefined;
}

function toImportView(record: StatementImportRecord): StatementImportView {
  return {
    id: record.id,
    account: record.account,
    sha256: record.sha256,
    periodFrom: record.periodFrom,
    periodTo: record.periodTo,
    lines: record.lines,
    counts: record.counts,
    createdAt: record.createdAt.toISOString(),
    by: record.by,
  };
}

function toReportView(report: StatementReport): StatementReportView {
  return {
    ...toImportView(report),
    matched: report.matched,
    onlyInStatement: report.onlyInStatement,
    onlyInGiro: report.onlyInGiro,
    amountMismatch: report.amountMismatch,
  };
}
