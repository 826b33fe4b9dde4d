// The catalog's connections, in a thread of their own (started by connections.ts, one for the
// process): an undici Pool for each client, which sends each request the client posts and posts
// back its answer, read whole. The client's work on one answer (parsing, planning) then never
// keeps an answer unread or a connection idle: while it works, this thread reads the answers that
// arrive and hands each freed connection the next request in its pool's queue.
//
// Plain JavaScript, so that Node can start it as it is, from the sources (tests, tsx) and from a
// build alike; the build bundles undici into it.
import { parentPort } from 'node:worker_threads';
import { Pool } from 'undici';

/** @type {Map<number, Pool>} */
const pools = new Map();

parentPort.on('message', (message) => {
  if (message.open !== undefined) {
    pools.set(message.open, new Pool(message.origin, message.settings));
  } else if (message.close !== undefined) {
    const pool = pools.get(message.close);
    pools.delete(message.close);
    void (pool === undefined ? Promise.resolve() : pool.close())
      .catch(() => undefined)
      .then(() => parentPort.postMessage({ closed: message.close }));
  } else {
    void send(message);
  }
});

/**
 * Sends one request on its client's pool: posts back `{ id, status, headers, bytes }` (the body's
 * bytes, transferred), or `{ id, failure }` with what the client needs to describe a network error
 * (its name, code and message).
 */
async function send({ id, pool, method, path, headers, body }) {
  try {
    const response = await pools.get(pool).request({
      method,
      path,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const bytes = await response.body.arrayBuffer();
    parentPort.postMessage({ id, status: response.statusCode, headers: response.headers, bytes }, [
      bytes,
    ]);
  } catch (error) {
    parentPort.postMessage({
      id,
      failure: {
        name: error instanceof Error ? error.name : 'Error',
        code: typeof error?.code === 'string' ? error.code : '',
        message: error instanceof Error ? error.message : String(error),
      },
    });
  }
}
