import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

// A TCP proxy between a client and the sandbox bank that can hold what either side sends instead of passing
// it on: to stop a request before it reaches the bank, or to let it through and keep its answer from the
// client. TLS passes through untouched (mutual TLS stays end to end).

export interface ProxyRules {
  /** Hold the client's bytes (never forward them) while this says so. */
  holdClientData?: () => boolean;
  /** Hold the server's bytes (never deliver them) while this says so. */
  holdServerData?: () => boolean;
}

interface Connection {
  client: Socket;
  upstream: Socket;
  heldFromClient: Buffer[];
  heldFromServer: Buffer[];
}

export class TcpProxy {
  /** Resolves the first time the proxy holds anything. */
  readonly held: Promise<void>;
  private signalHeld!: () => void;
  private released = false;
  private readonly connections = new Set<Connection>();

  private constructor(
    private readonly server: Server,
    private readonly rules: ProxyRules,
  ) {
    this.held = new Promise((resolve) => {
      this.signalHeld = resolve;
    });
  }

  /** A proxy on a free port of 127.0.0.1 to `target` (an https URL). */
  static async start(target: string, rules: ProxyRules): Promise<TcpProxy> {
    const { hostname, port } = new URL(target);
    const server = createServer();
    const proxy = new TcpProxy(server, rules);
    server.on('connection', (client) => proxy.accept(client, hostname, Number(port)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Delivers everything held, in order, and holds nothing from now on. */
  release(): void {
    this.released = true;
    for (const connection of this.connections) {
      for (const chunk of connection.heldFromClient.splice(0)) connection.upstream.write(chunk);
      for (const chunk of connection.heldFromServer.splice(0)) connection.client.write(chunk);
    }
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.connections) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, host: string, port: number): void {
    const upstream = connect(port, host);
    const connection: Connection = { client, upstream, heldFromClient: [], heldFromServer: [] };
    this.connections.add(connection);
    client.on('data', (chunk) => this.pass(chunk, this.rules.holdClientData, connection.heldFromClient, upstream));
    upstream.on('data', (chunk) => this.pass(chunk, this.rules.holdServerData, connection.heldFromServer, client));
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.connections.delete(connection);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  }

  private pass(chunk: Buffer, hold: (() => boolean) | undefined, held: Buffer[], to: Socket): void {
    if (!this.released && (held.length > 0 || hold?.())) {
      held.push(chunk);
      this.signalHeld();
      return;
    }
    to.write(chunk);
  }
}
