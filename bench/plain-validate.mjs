// The plain loop `contracts validate` is set beside: every *.yaml file under the folder named by
// its argument read, parsed with js-yaml and checked with ajv against the contract schema (compiled
// once in each thread), in two threads as the tool loads many files; exits 1 if any is invalid.
// A process of its own, timed from spawn to exit as the tool is; at exit it writes its peak memory
// and the CPU its threads used (bench/usage.mjs), as bench/rss-wrapper.mjs does for plan.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { writeUsageAtExit } from './usage.mjs';

function check(files, schemaFile) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
  let invalid = 0;
  for (const file of files) if (!validate(load(readFileSync(file, 'utf8')))) invalid += 1;
  return invalid;
}

if (isMainThread) {
  writeUsageAtExit();
  const dir = process.argv[2];
  const schemaFile = new URL('../schemas/data-contract.schema.json', import.meta.url);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => path.join(dir, name));
  const half = Math.ceil(files.length / 2);
  const other = new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { files: files.slice(half), schemaFile: schemaFile.href },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const invalid = check(files.slice(0, half), schemaFile) + (await other);
  process.exitCode = invalid === 0 ? 0 : 1;
} else {
  parentPort.postMessage(check(workerData.files, new URL(workerData.schemaFile)));
}
