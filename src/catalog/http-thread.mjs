// The catalog's connections, in a thread of their own (started by connections.ts, one for the
// process): an undici Pool for each client, which sends each request the client posts and posts
// back its answer, read whole. The client's work on one answer (parsing, planning) then never
// keeps an answer unread or a connection idle: while it works, this thread reads the answers that
// arrive and hands each freed connection the next request in its pool's queue.
//
// Plain JavaScript, so that Node can start it as it is, from the sources (tests, tsx) and from a
// build alike; the build bundles undici into it.
//
// undici through its public entry: its Pool, and the Dispatcher interface of `dispatch`, with a
// handler that reads the answer whole and holds the request's deadline. Loading only the Pool's
// own module (undici/lib/…, a private path a minor release may move) was measured against it in
// plan and in a loop of GETs, alternating: no difference beyond the noise (bench/README.md,
// "Session of issue #65").
import { parentPort } from 'node:worker_threads';
import { Pool } from 'undici';

/** Each client's pool, the headers every one of its requests carries, and its requests' deadline (ms). */
/** @type {Map<number, { pool: import('undici').Pool, headers: Record<string, string>, deadline: number }>} */
const pools = new Map();

parentPort.on('message', (message) => {
  if (message.open !== undefined) {
    pools.set(message.open, {
      pool: new Pool(message.origin, message.settings),
      headers: message.headers,
      deadline: message.deadline,
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
    send(message);
  }
});

/**
 * The most an answer may hold: no catalog answer the tool asks for comes near it, and a larger
 * one (a proxy's endless page, a broken server) would not fit in one string.
 */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** An error of `code` saying `message`, as undici's errors are (name, code, message). */
function failureOf(name, code, message) {
  const error = new Error(message);
  error.name = name;
  error.code = code;
  return error;
}

/**
 * Sends one request on its client's pool, with the client's headers and its own: posts back
 * `{ id, status, headers, bytes }` (the body's bytes, transferred), or `{ id, failure }` with
 * what the client needs to describe a network error (its name, code and message).
 *
 * Its client's deadline counts from the moment the request goes out on a connection (not while
 * it waits in the pool's queue) to the last byte of the answer, headers and body together:
 * undici's own headersTimeout and bodyTimeout are idle timeouts, which an answer trickled a byte
 * at a time (or headers held open by informational answers) never trips. Past it the request is
 * aborted with code REQUEST_DEADLINE.
 */
function send({ id, pool, method, path, headers, body }) {
  const client = pools.get(pool);
  let timer;
  let settled = false;
  let status = 0;
  let answerHeaders = {};
  const chunks = [];
  let size = 0;
  const settle = (message, transfer) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    parentPort.postMessage(message, transfer);
  };
  const fail = (error) =>
    settle({
      id,
      failure: {
        name: error instanceof Error ? error.name : 'Error',
        code: typeof error?.code === 'string' ? error.code : '',
        message: error instanceof Error ? error.message : String(error),
      },
    });
  try {
    client.pool.dispatch(
      {
        method,
        path,
        headers: { ...client.headers, ...headers },
        ...(body === undefined ? {} : { body }),
      },
      {
        onRequestStart(controller) {
          clearTimeout(timer);
          timer = setTimeout(
            () =>
              controller.abort(
                failureOf(
                  'DeadlineError',
                  'REQUEST_DEADLINE',
                  `no complete answer within ${client.deadline} ms (CATALOG_TIMEOUT_MS)`,
                ),
              ),
            client.deadline,
          );
        },
        onResponseStart(_controller, statusCode, responseHeaders) {
          // An informational answer (1xx) comes before the answer itself.
          if (statusCode < 200) return;
          status = statusCode;
          answerHeaders = responseHeaders;
        },
        onResponseData(controller, chunk) {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            controller.abort(
              failureOf(
                'Error',
                'ANSWER_TOO_LARGE',
                `the answer was larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, which no catalog answer this tool asks for is; it was not read`,
              ),
            );
            return;
          }
          chunks.push(chunk);
        },
        onResponseEnd() {
          const whole = Buffer.concat(chunks, size);
          // A buffer of its own, so that it can be transferred: the one Buffer.concat made, unless
          // the answer is small enough for Node to have cut it from its shared pool (then a copy).
          const own = whole.byteOffset === 0 && whole.byteLength === whole.buffer.byteLength;
          const bytes = own
            ? whole.buffer
            : whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength);
          settle({ id, status, headers: answerHeaders, bytes }, [bytes]);
        },
        onResponseError(_controller, error) {
          fail(error);
        },
      },
    );
  } catch (error) {
    fail(error);
  }
}
