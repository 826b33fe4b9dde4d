// Profiles the reading-and-planning phase of `plan` alone (files are loaded before the profiler
// starts). Usage, with a sandbox serving the workspace's seed:
//   CATALOG_URL=... CATALOG_TOKEN=... npx tsx bench/phase-probe.ts DIR [--no-assets]
// Prints the phase's wall time and writes .bench/phase.cpuprofile (open it in Chrome DevTools).
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CatalogClient } from '../src/catalog/client.js';
import { loadContracts } from '../src/read/load.js';
import { readAndPlanEach } from '../src/read/read-plan-inputs.js';

const dir = process.argv[2];
const { CATALOG_URL, CATALOG_TOKEN } = process.env;
if (dir === undefined || CATALOG_URL === undefined || CATALOG_TOKEN === undefined) {
  console.error('usage: CATALOG_URL=… CATALOG_TOKEN=… phase-probe DIR [--no-assets]');
  process.exit(1);
}
const loaded = await loadContracts([dir], process.cwd());
if (loaded.problems.length > 0) throw new Error(`${loaded.problems.length} problems in ${dir}`);
const client = new CatalogClient({ baseUrl: CATALOG_URL, token: CATALOG_TOKEN });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const started = performance.now();
await readAndPlanEach(loaded.files, client, { checkAssets: !process.argv.includes('--no-assets') });
console.log('plan phase ms', Math.round(performance.now() - started));
const { profile } = await session.post('Profiler.stop');
mkdirSync('.bench', { recursive: true });
writeFileSync(path.join('.bench', 'phase.cpuprofile'), JSON.stringify(profile));
await client.close();
