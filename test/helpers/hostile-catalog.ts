// A catalog that answers what a test tells it to, on 127.0.0.1: a hostile catalog or proxy (error
// pages that quote the token, answers trickled a byte at a time, lists whose cursor goes round,
// answers of the wrong shape), and a workspace of the repository's example contracts to plan
// against it. Everything it starts is stopped by `stop`.
import { cp } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { forwarder } from './forwarder.js';
import { openSandbox } from './sandbox.js';
import { tempDir } from './temp-dir.js';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface HostileCatalog {
  url: string;
  /** `METHOD /path?query` of every request, in order. */
  requests: string[];
}

/** Everything a test started, stopped in reverse order (call in afterEach). */
export class Started {
  private readonly stops: (() => Promise<void>)[] = [];

  async stop(): Promise<void> {
    while (this.stops.length > 0) await this.stops.pop()!();
  }

  /** A catalog on 127.0.0.1 whose every answer is `handler`'s. */
  async catalog(
    handler: (request: IncomingMessage, response: ServerResponse) => void,
  ): Promise<HostileCatalog> {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
      request.resume();
      handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.stops.push(
      () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
  }

  /**
   * A server on 127.0.0.1 that speaks raw HTTP/1.1: `answer` is called with the connection once
   * the first bytes of a request arrive (they are not read further).
   */
  async raw(answer: (socket: Socket) => void): Promise<string> {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.once('data', () => answer(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.stops.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => resolve());
        }),
    );
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /**
   * A sandbox behind a hostile proxy: `rewrite` changes the sandbox's JSON answers (method, path
   * with query, body) on their way; a directory holding `contracts` (name → contract, as YAML
   * under contracts/), and the environment that plans it through the proxy.
   */
  async proxied(
    options: Parameters<typeof openSandbox>[0],
    contracts: Record<string, unknown>,
    rewrite: (method: string, url: string, body: unknown) => unknown,
  ): Promise<{ cwd: string; env: Record<string, string>; requests: string[] }> {
    const opened = await openSandbox(options);
    this.stops.push(() => opened.sandbox.close());
    const front = await forwarder(opened.sandbox.root, () => undefined, rewrite);
    this.stops.push(() => front.close());
    const dir = await tempDir();
    this.stops.push(() => dir.remove());
    await mkdir(path.join(dir.dir, 'contracts'));
    for (const [name, contract] of Object.entries(contracts))
      await writeFile(path.join(dir.dir, 'contracts', `${name}.yaml`), stringify(contract));
    // The catalog's base keeps the sandbox's path (/api under the openmetadata profile).
    const base = `${front.url}${new URL(opened.sandbox.url).pathname.replace(/\/$/, '')}`;
    return {
      cwd: dir.dir,
      env: { CATALOG_URL: base, CATALOG_TOKEN: await opened.token() },
      requests: front.requests,
    };
  }

  /** A directory holding the repository's example contracts (contracts/), and nothing else. */
  async workspace(): Promise<string> {
    const dir = await tempDir();
    this.stops.push(() => dir.remove());
    await cp(path.join(root, 'contracts'), path.join(dir.dir, 'contracts'), { recursive: true });
    return dir.dir;
  }
}

/** Answers `status` with `body` as JSON. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
