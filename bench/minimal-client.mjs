// The minimal client: the requests plan sends (the JSON file named by its argument), in the same
// order and at the same concurrency (FLOOR_CONCURRENCY), through one undici Pool, each answer
// parsed with JSON.parse and nothing more. What a command must at least spend to read what plan
// reads; the benchmark sets plan's CPU beside it. At exit it writes its peak memory (KiB) and the
// CPU it used (bench/usage.mjs), as bench/rss-wrapper.mjs does for plan.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { sendAll } from './send-all.mjs';
import { writeUsageAtExit } from './usage.mjs';

writeUsageAtExit();
const requests = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const concurrency = Number(process.env.FLOOR_CONCURRENCY);
const pool = new Pool(new URL(process.env.CATALOG_URL).origin, { connections: concurrency });
const failure = await sendAll(pool, process.env.CATALOG_TOKEN, requests, concurrency, {
  parse: true,
});
await pool.close();
if (failure !== null) process.stderr.write(`minimal client: ${failure}\n`);
process.exitCode = failure === null ? 0 : 1;
