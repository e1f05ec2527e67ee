import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a database server that a test can cut — every connection through it
 * closed, new ones refused (accepted and closed at once) — and restore, as a network cut or a restart of the
 * server looks to giro. Only this proxy's connections are touched: other suites on the same server are not.
 */
export class CuttableProxy {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  private cut = false;
  /** Connections refused while cut off, since the start. */
  refused = 0;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(target: { host: string; port: number }): Promise<CuttableProxy> {
    const proxy = new CuttableProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Closes every connection through the proxy and refuses new ones until restore(). */
  cutOff(): void {
    this.cut = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cut = false;
  }

  close(): Promise<void> {
    this.cutOff();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.cut) {
      this.refused += 1;
      client.destroy();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
