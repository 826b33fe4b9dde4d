// The floor's loop: the smallest way undici allows to send a list of requests, a fixed number at
// once. The benchmark runs it in its own process (floor) and as a process of its own
// (floor-loop.mjs), so both floors are this same code.

/**
 * Sends `requests` ([{method, path, body?}]) through `pool` with the bearer `token`, `concurrency`
 * at once, reading each answer whole (and, with `parse`, parsing it with JSON.parse). Resolves with
 * the first answer that is not 200, described (`PATCH /v1/... answered 400`), or null; no request
 * starts after it.
 */
export async function sendAll(pool, token, requests, concurrency, options = {}) {
  const authorization = `Bearer ${token}`;
  let next = 0;
  let failure = null;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length && failure === null) {
        const { method, path, body } = requests[next++];
        const response = await pool.request({
          path,
          method,
          headers:
            body === undefined
              ? { authorization }
              : { authorization, 'content-type': 'application/json-patch+json' },
          ...(body === undefined ? {} : { body }),
        });
        const text = await response.body.text();
        if (options.parse === true) JSON.parse(text);
        if (response.statusCode !== 200)
          failure ??= `${method} ${path.split('?')[0]} answered ${response.statusCode}`;
      }
    }),
  );
  return failure;
}
