// The floor as a process of its own, started and timed the way the tool is: sends the requests
// listed in the JSON file named by its argument ([{method, path, body?}]) to CATALOG_URL with
// CATALOG_TOKEN, FLOOR_CONCURRENCY at once, and exits 1 on any answer but 200.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { sendAll } from './send-all.mjs';

const requests = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const concurrency = Number(process.env.FLOOR_CONCURRENCY);
const pool = new Pool(new URL(process.env.CATALOG_URL).origin, { connections: concurrency });
const failure = await sendAll(pool, process.env.CATALOG_TOKEN, requests, concurrency);
await pool.close();
if (failure !== null) process.stderr.write(`floor: ${failure}\n`);
process.exitCode = failure === null ? 0 : 1;
