// The floor as a process of its own, started and timed the way the tool is: sends the requests
// listed in the JSON file named by its argument ([{method, path, body?}]) to CATALOG_URL with
// CATALOG_TOKEN, FLOOR_CONCURRENCY at once, and exits 1 on any answer but 200.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const requests = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const concurrency = Number(process.env.FLOOR_CONCURRENCY);
const pool = new Pool(new URL(process.env.CATALOG_URL).origin, { connections: concurrency });
const authorization = `Bearer ${process.env.CATALOG_TOKEN}`;
let next = 0;
let failed = false;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < requests.length && !failed) {
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
      await response.body.text();
      if (response.statusCode !== 200) {
        process.stderr.write(
          `floor: ${method} ${path.split('?')[0]} answered ${response.statusCode}\n`,
        );
        failed = true;
      }
    }
  }),
);
await pool.close();
process.exitCode = failed ? 1 : 0;
