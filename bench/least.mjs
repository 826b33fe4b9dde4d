// The least a plan can take (issue #69): every *.yaml file under the folder named by its argument
// read, parsed with js-yaml and checked with ajv against the contract schema (compiled once in
// each of two threads, as bench/plain-validate.mjs), while this thread reads every live contract
// the cheapest way the catalog allows: its list, 1,000 a page with the fields plan asks for, by
// the cursors it gives, through one undici Pool, each page parsed with JSON.parse and nothing
// more. A process of its own, timed from spawn to exit as plan is; at exit it writes its peak
// memory and CPU (bench/usage.mjs). CATALOG_URL, CATALOG_TOKEN; LEAST_LIST_PATH (default
// /v1/dataContracts). Exits 1 if a file is invalid or the catalog answers other than 200.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { Pool } from 'undici';
import { writeUsageAtExit } from './usage.mjs';

function check(files, schemaFile) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
  let invalid = 0;
  for (const file of files) if (!validate(load(readFileSync(file, 'utf8')))) invalid += 1;
  return invalid;
}

/** Every contract of the catalog's list, page after page: how many, or why it failed. */
async function readList() {
  const url = new URL(process.env.CATALOG_URL);
  const pool = new Pool(url.origin, { connections: 1 });
  const listPath = process.env.LEAST_LIST_PATH ?? '/v1/dataContracts';
  const authorization = `Bearer ${process.env.CATALOG_TOKEN}`;
  let after;
  let count = 0;
  try {
    for (;;) {
      const query = new URLSearchParams({ fields: 'owners,reviewers,extension', limit: '1000' });
      if (after !== undefined) query.set('after', after);
      const response = await pool.request({
        path: `${listPath}?${query}`,
        method: 'GET',
        headers: { authorization },
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) return `GET ${listPath} answered ${response.statusCode}`;
      const page = JSON.parse(text);
      count += page.data.length;
      after = page.paging?.after ?? undefined;
      if (page.data.length === 0 || after === undefined || after === null) return count;
    }
  } finally {
    await pool.close();
  }
}

function validateIn(files, schemaFile) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { files, schemaFile: schemaFile.href },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

if (isMainThread) {
  writeUsageAtExit();
  const dir = process.argv[2];
  const schemaFile = new URL('../schemas/data-contract.schema.json', import.meta.url);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => path.join(dir, name));
  const half = Math.ceil(files.length / 2);
  const [listed, first, second] = await Promise.all([
    readList(),
    validateIn(files.slice(0, half), schemaFile),
    validateIn(files.slice(half), schemaFile),
  ]);
  if (typeof listed === 'string') process.stderr.write(`the least: ${listed}\n`);
  process.exitCode = typeof listed === 'number' && first + second === 0 ? 0 : 1;
} else {
  parentPort.postMessage(check(workerData.files, new URL(workerData.schemaFile)));
}
