import type { LedgerEntry, LedgerPage, SandboxConfig, SandboxConfigPatch, SandboxCounters } from '@giro/sandbox-bank';
import { Agent, request } from 'undici';
import type { BankSettings } from '../bank/bank-settings';

const LEDGER_PAGE = 1000;

/** The sandbox's control and inspection surface (`/__sandbox/`, mutual TLS only). */
export class SandboxControl {
  private readonly dispatcher: Agent;

  constructor(private readonly bank: BankSettings) {
    this.dispatcher = new Agent({ connect: { ca: bank.ca, cert: bank.cert, key: bank.key } });
  }

  counters(): Promise<SandboxCounters> {
    return this.call('GET', 'counters');
  }

  config(): Promise<SandboxConfig> {
    return this.call('GET', 'config');
  }

  async configure(patch: SandboxConfigPatch): Promise<void> {
    await this.call('POST', 'config', patch);
  }

  /** Forgets every movement and zeroes the counters. */
  async reset(): Promise<void> {
    await this.call('POST', 'reset');
  }

  /** Registers `count` movements from `firstOriginId`, as if `transfer` had been created now. */
  async seed(firstOriginId: number, count: number, transfer: object): Promise<void> {
    await this.call('POST', 'seed', { firstOriginId, count, transfer });
  }

  /** Every ledger entry, in processing order. */
  async ledger(): Promise<LedgerEntry[]> {
    const entries: LedgerEntry[] = [];
    let cursor: number | undefined = 0;
    while (cursor !== undefined) {
      const page: LedgerPage = await this.call('GET', `ledger?cursor=${cursor}&limit=${LEDGER_PAGE}`);
      entries.push(...page.entries);
      cursor = page.nextCursor;
    }
    return entries;
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private async call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    const response = await request(`${this.bank.url}/__sandbox/${route}`, {
      method,
      dispatcher: this.dispatcher,
      // A connection per call: between calls the bench may block its event loop for a while (seeding a large
      // SQLite backlog), the sandbox closes the idle connection meanwhile, and a POST on it would fail.
      reset: true,
      ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) {
      throw new Error(`sandbox ${method} /__sandbox/${route} answered ${response.statusCode}: ${text.slice(0, 500)}`);
    }
    return JSON.parse(text) as T;
  }
}
