// The smaller rows: validate throughput over the largest plan size's files (timed by the plan
// block) beside the plain loop, the slowest files to load, start-up, and the diff engine.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { median } from '../timing.js';
import { CLI, PLAN_SIZES, RUNS, quick, root } from '../lib/options.js';
import { timeCommand } from '../lib/processes.js';
import { results, rows } from '../lib/report.js';
import { planWorkspaces, work } from '../lib/workspaces.js';

/**
 * Validate throughput over the largest set (timed beside plan at scale), beside the plain loop:
 * js-yaml and ajv over the same files in as many threads (bench/plain-validate.mjs). Needs the
 * plan block.
 */
export function validateBlock(): void {
  const n = PLAN_SIZES[PLAN_SIZES.length - 1]!;
  const { validateMs, plain } = planWorkspaces.get(n)!;
  const perSecond = n / (validateMs / 1000);
  const plainMs = plain.ms;
  const plainPerSecond = n / (median(plainMs) / 1000);
  const share = perSecond / plainPerSecond;
  results.validate = {
    files: n,
    ms: validateMs,
    filesPerSecond: perSecond,
    plainLoopMs: median(plainMs),
    plainLoopFilesPerSecond: plainPerSecond,
    ofPlainLoop: share,
  };
  rows.push([
    `validate, ${n.toLocaleString('en')} files`,
    `${validateMs.toFixed(0)} ms`,
    `${perSecond.toFixed(0)} files/s`,
    '',
  ]);
  rows.push([
    `  beside js-yaml + ajv, two threads (plain loop)`,
    `${median(plainMs).toFixed(0)} ms`,
    `${plainPerSecond.toFixed(0)} files/s`,
    `${share.toFixed(2)}× (≥ 0.85× ${share >= 0.85 ? '✓' : '✗'})`,
  ]);
}

/**
 * The slowest files to load: just under the size limit, each shape that once took quadratic time
 * (unknown keys, duplicate keys, invalid list items). Whole processes, each must stay < 2 s.
 */
export async function worstFileBlock(): Promise<void> {
  const head = 'name: x\nfullyQualifiedName: a.b\nentity: {type: table, fullyQualifiedName: a.b}\n';
  const shapes: [string, (i: number) => string, string][] = [
    ['unknown keys', (i) => `k${i}: v\n`, ''],
    ['duplicate keys', () => '  k: 1\n', 'extension:\n'],
    ['invalid columns', (i) => `  - {name: c${i}, dataType: 5}\n`, 'schema:\n'],
  ];
  const worst = path.join(work, 'worst');
  mkdirSync(worst, { recursive: true });
  const times: Record<string, number> = {};
  for (const [label, line, opening] of shapes) {
    let text = `${head}${opening}`;
    for (let i = 0; text.length + 40 < 1024 * 1024; i++) text += line(i);
    const file = `${label.replace(/ /g, '-')}.yaml`;
    writeFileSync(path.join(worst, file), text);
    const ms: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const validate = await timeCommand(['validate', file], worst, {});
      if (validate.code !== 1) throw new Error(`validate of ${file} did not report its problems`);
      ms.push(validate.ms);
    }
    times[label] = median(ms);
    rows.push([
      `validate, one 1 MiB file of ${label}`,
      `${median(ms).toFixed(0)} ms`,
      median(ms) < 2000 ? '< 2 s ✓' : '< 2 s ✗',
      '',
    ]);
  }
  results.worstFile = times;
}

/** Start-up. */
export function startupBlock(): void {
  const one = path.join(work, 'one');
  mkdirSync(one, { recursive: true });
  copyFileSync(path.join(root, 'contracts', 'orders.yaml'), path.join(one, 'orders.yaml'));
  // One of the standard's own examples, for the ODCS path (its schema's validator read from disk).
  const odcsExample = 'table-column.odcs.yaml';
  copyFileSync(
    path.join(root, 'test', 'fixtures', 'odcs-3.1.0', odcsExample),
    path.join(one, odcsExample),
  );
  const time = (args: string[]): number => {
    const samples: number[] = [];
    for (let i = 0; i < (quick ? 7 : 21); i++) {
      const started = performance.now();
      const result = spawnSync(process.execPath, args, { cwd: one, stdio: 'ignore' });
      if (result.status !== 0) throw new Error(`${args.join(' ')} failed`);
      samples.push(performance.now() - started);
    }
    return median(samples);
  };
  const node = time(['-e', '0']);
  const version = time([CLI, '--version']);
  const validateOne = time([CLI, 'validate', 'orders.yaml']);
  const validateOdcs = time([CLI, 'validate', odcsExample]);
  results.startup = {
    nodeMs: node,
    versionMs: version,
    validateOneMs: validateOne,
    validateOdcsMs: validateOdcs,
    versionRatio: version / node,
    validateOneRatio: validateOne / node,
  };
  rows.push(['start-up: node -e 0', `${node.toFixed(0)} ms`, '', '']);
  rows.push([
    'start-up: contracts --version',
    `${version.toFixed(0)} ms`,
    '',
    `${(version / node).toFixed(2)}× node`,
  ]);
  rows.push([
    'start-up: contracts validate (1 file)',
    `${validateOne.toFixed(0)} ms`,
    '',
    `${(validateOne / node).toFixed(2)}× node`,
  ]);
  rows.push([
    'start-up: contracts validate (1 ODCS file)',
    `${validateOdcs.toFixed(0)} ms`,
    '',
    `${(validateOdcs / node).toFixed(2)}× node`,
  ]);
}

/** The diff engine (its own benchmark; quick mode in a quick run). */
export function diffBlock(): void {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/diff.ts', ...(quick ? ['--quick'] : [])],
    { cwd: root, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error('bench:diff failed');
  const diff = JSON.parse(readFileSync(path.join(root, '.bench', 'diff.json'), 'utf8')) as {
    medianRatio: number;
    combinedMicros: number;
    exact: boolean;
    worst: { kind: string; ratio: number };
  };
  results.diff = diff;
  rows.push([
    'diff, 200 columns: time vs fast-json-patch',
    `${diff.medianRatio.toFixed(2)}× (median)`,
    `worst ${diff.worst.ratio.toFixed(2)}×`,
    '',
  ]);
  rows.push(['diff, combined edit at 200 columns', `${diff.combinedMicros.toFixed(0)} µs`, '', '']);
  rows.push(['diff, minimal on all 48 cases', diff.exact ? 'yes' : 'NO', '', '']);
}
