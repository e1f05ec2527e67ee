import { setTimeout as sleep } from 'node:timers/promises';
import { LoopbackHosts } from '@test-support/loopback-hosts';
import type { ChaosIntent } from './chaos-intents';

// The host application of a chaos run. It submits every intent through the admin API of the replicas
// (POST /admin/transfers with its own originId) and behaves like a real host: when the request fails
// without an answer — the process died, the connection was reset, no answer in time — or gets a 5xx, it
// submits the SAME originId and payload again, until it gets 200/201 or a 4xx. A 503 (the database out) is
// waited out for its Retry-After, as a host is asked to.
//
// The admin API allows 600 requests a minute per client address, more than one host makes but less than a
// chaos run needs: the driver plays many hosts, each from an address of its own on the loopback network.

export interface Refusal {
  originId: number;
  httpStatus: number;
  body: string;
}

export interface DriverReport {
  /** 4xx answers (none expected: every payload is valid and re-submitted unchanged). */
  refusals: Refusal[];
  /** 200/201 answers naming another originId than the one submitted. */
  wrongOriginIds: number;
  /** Submissions of an intent after its first: the process died, the connection broke, no answer in time, 5xx. */
  resubmissions: number;
  /** 503 answers with a Retry-After (the database out). */
  unavailable: number;
  /** Any other 5xx (none expected), with the first few bodies. */
  serverErrors: Refusal[];
}

export interface DriverOptions {
  /** Base URLs of the replicas; each attempt picks one at random. */
  targets: string[];
  adminToken: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** Client addresses 127.0.0.2 … (1 + hosts). */
  hosts: number;
  /** A request without an answer by then is abandoned (and submitted again). */
  requestTimeoutMs: number;
  /** An intent still without 200/201 or 4xx by then fails the run. */
  intentTimeoutMs: number;
  random: () => number;
}

export class TransferDriver {
  private readonly hosts: LoopbackHosts;

  constructor(private readonly options: DriverOptions) {
    this.hosts = new LoopbackHosts(options.hosts);
  }

  async submitAll(intents: ChaosIntent[]): Promise<DriverReport> {
    const report: DriverReport = {
      refusals: [],
      wrongOriginIds: 0,
      resubmissions: 0,
      unavailable: 0,
      serverErrors: [],
    };
    let next = 0;
    const worker = async () => {
      while (next < intents.length) {
        const intent = intents[next++] as ChaosIntent;
        await this.submit(intent, report);
      }
    };
    await Promise.all(Array.from({ length: this.options.concurrency }, worker));
    return report;
  }

  close(): Promise<void> {
    return this.hosts.close();
  }

  private async post(url: string, body: string, token: string, timeoutMs: number): Promise<Answer> {
    try {
      const answer = await this.hosts.request(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
        timeoutMs,
      });
      const retryAfter = Number(answer.headers['retry-after']);
      return {
        status: answer.status,
        text: answer.text,
        ...(Number.isFinite(retryAfter) && { retryAfterSeconds: retryAfter }),
      };
    } catch (error) {
      return { error: (error as { code?: string }).code ?? (error as Error).name };
    }
  }

  private async submit(intent: ChaosIntent, report: DriverReport): Promise<void> {
    const { targets, adminToken, requestTimeoutMs, intentTimeoutMs, random } = this.options;
    const firstSentAt = Date.now();
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1) report.resubmissions += 1;
      if (Date.now() - firstSentAt > intentTimeoutMs) {
        throw new Error(`originId ${intent.originId}: no 200/201 or 4xx within ${intentTimeoutMs} ms`);
      }
      const target = targets[Math.floor(random() * targets.length)] as string;
      const answer = await this.post(`${target}/admin/transfers`, intent.body, adminToken, requestTimeoutMs);
      if ('error' in answer) {
        await sleep(50 + random() * 200);
        continue;
      }
      const { status, text, retryAfterSeconds } = answer;
      if (status === 200 || status === 201) {
        if (JSON.parse(text).originId !== intent.originId) report.wrongOriginIds += 1;
        return;
      }
      if (status === 429) await sleep((retryAfterSeconds ?? 1) * 1000);
      else if (status === 503 && retryAfterSeconds !== undefined) {
        report.unavailable += 1;
        await sleep(retryAfterSeconds * 1000);
      } else if (status >= 400 && status < 500) {
        report.refusals.push({ originId: intent.originId, httpStatus: status, body: text.slice(0, 500) });
        return;
      } else {
        report.serverErrors.push({ originId: intent.originId, httpStatus: status, body: text.slice(0, 500) });
        await sleep(50 + random() * 200);
      }
    }
  }
}

type Answer = { status: number; text: string; retryAfterSeconds?: number } | { error: string };
