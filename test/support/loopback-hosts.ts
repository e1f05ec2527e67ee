import { Agent, request } from 'undici';

// HTTP clients that each connect from an address of their own on the loopback network (127.0.0.2, 127.0.0.3…),
// as many hosts would. The reconciler's admin API limits requests per client address (600 a minute), which a
// test that plays many hosts, or sends hundreds of requests in a few seconds, would otherwise hit.

export interface HostAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export class LoopbackHosts {
  private readonly agents: Agent[];
  private next = 0;

  constructor(count: number) {
    this.agents = Array.from(
      { length: count },
      (_, index) => new Agent({ connections: 4, localAddress: `127.0.0.${2 + index}` }),
    );
  }

  /** One request from the next host in turn; rejects when no answer came (refused, reset, timeout). */
  async request(
    url: string,
    options: { method: string; headers?: Record<string, string>; body?: string; timeoutMs?: number },
  ): Promise<HostAnswer> {
    const agent = this.agents[this.next++ % this.agents.length] as Agent;
    const response = await request(url, {
      method: options.method as 'GET',
      dispatcher: agent,
      headers: options.headers,
      body: options.body,
      headersTimeout: options.timeoutMs ?? 10_000,
      bodyTimeout: options.timeoutMs ?? 10_000,
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  }

  async close(): Promise<void> {
    await Promise.all(this.agents.map((agent) => agent.close()));
  }
}
