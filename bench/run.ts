// `npm run bench` (`-- --quick` for a short run, `-- --only BLOCK,...` for some blocks): plan and
// apply at scale against the sandbox in a separate process, each beside its floor (the same
// requests from a minimal undici loop), issue #69's targets (one file, drift and prune, apply
// fresh and from a saved plan, 100,000 contracts), plus validate throughput, start-up, peak memory
// and the diff engine's figures. Prints one table and writes .bench/results.json
// (.bench/results-only.json with --only). Each block is a module of bench/blocks; what they share
// is in bench/lib.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyBlock } from './blocks/apply.js';
import { applyLatencyBlock } from './blocks/apply-latency.js';
import { driftPruneBlock } from './blocks/drift-prune.js';
import { hugeBlock } from './blocks/huge.js';
import { oneFileBlock } from './blocks/one-file.js';
import { planBlock } from './blocks/plan.js';
import { planLatencyBlock } from './blocks/plan-latency.js';
import { diffBlock, startupBlock, validateBlock, worstFileBlock } from './blocks/small.js';
import { onlyBlocks, quick, root } from './lib/options.js';
import { printTable, results, rows } from './lib/report.js';
import { removeWork } from './lib/workspaces.js';

interface Block {
  name: string;
  run: () => Promise<void> | void;
  /** Blocks whose figures it reads: run before it, whether named or not. */
  needs?: string[];
  /** Skipped under --quick. */
  fullOnly?: boolean;
}

/** The blocks in the order they run, and their rows appear. */
const BLOCKS: Block[] = [
  { name: 'plan', run: planBlock },
  { name: 'plan-latency', run: planLatencyBlock, needs: ['plan'] },
  { name: 'one-file', run: oneFileBlock },
  { name: 'drift-prune', run: driftPruneBlock },
  { name: '100k', run: hugeBlock, fullOnly: true },
  { name: 'apply', run: applyBlock },
  { name: 'apply-latency', run: applyLatencyBlock },
  { name: 'validate', run: validateBlock, needs: ['plan'] },
  { name: 'worst-file', run: worstFileBlock },
  { name: 'startup', run: startupBlock },
  { name: 'diff', run: diffBlock },
];

const only = onlyBlocks(process.argv);
const unknown = (only ?? []).filter((name) => !BLOCKS.some((block) => block.name === name));
if (unknown.length > 0)
  throw new Error(
    `--only: no block ${unknown.join(', ')}; the blocks are ${BLOCKS.map((b) => b.name).join(', ')}`,
  );
const chosen = new Set(only ?? BLOCKS.map((block) => block.name));
for (const block of BLOCKS)
  if (chosen.has(block.name)) for (const need of block.needs ?? []) chosen.add(need);
if (only !== undefined) results.only = BLOCKS.filter((b) => chosen.has(b.name)).map((b) => b.name);

/** How long each block took, whole (its workspaces and sandboxes too). */
const blockSeconds: Record<string, number> = {};
results.blockSeconds = blockSeconds;
try {
  for (const block of BLOCKS) {
    if (!chosen.has(block.name)) continue;
    if (block.fullOnly === true && quick) {
      rows.push([`(${block.name}: not run under --quick)`, '', '', '']);
      continue;
    }
    const started = performance.now();
    await block.run();
    blockSeconds[block.name] = (performance.now() - started) / 1000;
  }
} finally {
  removeWork();
}

printTable(only);
mkdirSync(path.join(root, '.bench'), { recursive: true });
const out = only === undefined ? 'results.json' : 'results-only.json';
writeFileSync(path.join(root, '.bench', out), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nSaved .bench/${out}`);
