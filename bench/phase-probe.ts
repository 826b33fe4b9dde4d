import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { CatalogClient } from '../src/catalog/client.js';
import { loadContracts } from '../src/contract/load.js';
import { planContracts } from '../src/plan/read-plan-inputs.js';
const loaded = await loadContracts(['/tmp/b10k/contracts'], '/tmp');
const client = new CatalogClient({
  baseUrl: process.env.CATALOG_URL!,
  token: process.env.CATALOG_TOKEN!,
});
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const t = performance.now();
await planContracts(loaded.files, client, {});
console.log('plan phase ms', Math.round(performance.now() - t));
const { profile } = await session.post('Profiler.stop');
writeFileSync('/tmp/phase.cpuprofile', JSON.stringify(profile));
await client.close();
