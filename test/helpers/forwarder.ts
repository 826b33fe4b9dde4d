// A catalog that differs from the sandbox in a few answers: a local server that answers what
// `answer` returns for a request and forwards every other request to the sandbox, recording each
// request's method and path with its query. For releases no test can run here.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Forwarder {
  /** The base URL to give as the catalog's. */
  url: string;
  /** `METHOD /path?query` of every request, in arrival order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Forwards to `target` (the sandbox's root) whatever `answer` leaves undefined; `answer` gets the
 * method and the path with its query.
 */
export async function forwarder(
  target: string,
  answer: (method: string, url: string) => { status: number; body: unknown } | undefined,
  /**
   * What a forwarded JSON answer becomes (as the sandbox answered it, by default); a Buffer is
   * sent as it is, as a body cut short or a proxy's page would be.
   */
  rewrite?: (method: string, url: string, body: unknown) => unknown,
): Promise<Forwarder> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? 'GET';
      const url = request.url ?? '/';
      requests.push(`${method} ${url}`);
      const own = answer(method, url);
      if (own !== undefined) {
        response.writeHead(own.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(own.body));
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'if-match'])
        if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      fetch(`${target}${url}`, { method, headers, ...(body === undefined ? {} : { body }) }).then(
        async (forwarded) => {
          const kept: Record<string, string> = {};
          for (const name of ['content-type', 'etag']) {
            const value = forwarded.headers.get(name);
            if (value !== null) kept[name] = value;
          }
          response.writeHead(forwarded.status, kept);
          const bytes = Buffer.from(await forwarded.arrayBuffer());
          const json = kept['content-type']?.startsWith('application/json') === true;
          if (rewrite === undefined || !json || bytes.length === 0) {
            response.end(bytes);
            return;
          }
          const rewritten = rewrite(method, url, JSON.parse(bytes.toString('utf8')));
          response.end(Buffer.isBuffer(rewritten) ? rewritten : JSON.stringify(rewritten));
        },
        () => response.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
