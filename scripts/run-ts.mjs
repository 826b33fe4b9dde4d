// Runs a TypeScript entry (a benchmark or a script) by bundling it with esbuild first, so the
// code measured is the same compiled code the CLI runs. Usage: node scripts/run-ts.mjs FILE [ARGS...]
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const [entry, ...args] = process.argv.slice(2);
if (entry === undefined) {
  console.error('usage: node scripts/run-ts.mjs FILE [ARGS...]');
  process.exit(1);
}
const outdir = path.resolve('.bench/build');
mkdirSync(outdir, { recursive: true });
const outfile = path.join(outdir, `${path.basename(entry, '.ts')}.mjs`);
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, ['--expose-gc', outfile, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
