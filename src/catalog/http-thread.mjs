// The catalog's connections, in a thread of their own (started by connections.ts, one for the
// process): an undici Pool for each client, which sends each request the client posts and posts
// back its answer, read whole. The client's work on one answer (parsing, planning) then never
// keeps an answer unread or a connection idle: while it works, this thread reads the answers that
// arrive and hands each freed connection the next request in its pool's queue.
//
// Plain JavaScript, so that Node can start it as it is, from the sources (tests, tsx) and from a
// build alike; the build bundles undici into it.
//
// Only undici's Pool and its request API are loaded, from their own modules: undici's index loads
// and runs all of undici (fetch, WebSocket, caches, mocks), which this thread never uses and
// which held 8.5 MiB more of the process's memory for as long as it ran (measured: the thread
// alone, idle, 21.6 MiB with the index against 13.1 with these two). The index adds the request
// API to every dispatcher's prototype; here it is called on the pool.
import { parentPort } from 'node:worker_threads';
import Pool from 'undici/lib/dispatcher/pool.js';
import { request } from 'undici/lib/api/index.js';

/** Each client's pool, and the headers every one of its requests carries. */
/** @type {Map<number, { pool: import('undici').Pool, headers: Record<string, string> }>} */
const pools = new Map();

parentPort.on('message', (message) => {
  if (message.open !== undefined) {
    pools.set(message.open, {
      pool: new Pool(message.origin, message.settings),
      headers: message.headers,
    });
  } else if (message.close !== undefined) {
    const client = pools.get(message.close);
    pools.delete(message.close);
    // Abandoned: the requests queued and out are dropped (reads nobody waits for any more).
    const closing = message.abandon === true ? 'destroy' : 'close';
    void (client === undefined ? Promise.resolve() : client.pool[closing]())
      .catch(() => undefined)
      .then(() => parentPort.postMessage({ closed: message.close }));
  } else {
    void send(message);
  }
});

/**
 * The most an answer may hold: no catalog answer the tool asks for comes near it, and a larger
 * one (a proxy's endless page, a broken server) would not fit in one string.
 */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The body's bytes, or an error (code ANSWER_TOO_LARGE) once it holds more than `limit`. */
async function readAtMost(body, limit) {
  const chunks = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      const error = new Error(
        `the answer was larger than ${limit / 1024 / 1024} MiB, which no catalog answer this tool asks for is; it was not read`,
      );
      error.code = 'ANSWER_TOO_LARGE';
      throw error;
    }
    chunks.push(chunk);
  }
  const whole = Buffer.concat(chunks, size);
  // A buffer of its own, so that it can be transferred.
  return whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength);
}

/**
 * Sends one request on its client's pool, with the client's headers and its own: posts back `{ id, status, headers, bytes }` (the body's
 * bytes, transferred), or `{ id, failure }` with what the client needs to describe a network error
 * (its name, code and message).
 */
async function send({ id, pool, method, path, headers, body }) {
  try {
    const client = pools.get(pool);
    const response = await request.call(client.pool, {
      method,
      path,
      headers: { ...client.headers, ...headers },
      ...(body === undefined ? {} : { body }),
    });
    const bytes = await readAtMost(response.body, MAX_ANSWER_BYTES);
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
