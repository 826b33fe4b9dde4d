// The progress line: what it says (count, rate, what is in flight), that it is drawn only on a
// terminal, and that the real CLI draws it on a terminal and never on a pipe.
/* eslint-disable no-control-regex -- the terminal sequences a progress line writes are what is checked */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { progressLine } from '../src/cli/progress.js';
import { cliProcess } from './helpers/cli-process.js';
import { editorSeed, openSandbox } from './helpers/sandbox.js';
import { manyTables } from './helpers/many-tables.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function terminal(isTTY = true, columns = 80) {
  const writes: string[] = [];
  return { writes, output: { write: (text: string) => writes.push(text), isTTY, columns } };
}

/** What the terminal shows last: the text after the last line-clearing sequence. */
const lastLine = (writes: string[]) => writes.at(-1)!.replace('\r\u001b[2K', '');

describe('the progress line', () => {
  it('says how many are done of how many, the rate, and the item in flight longest', () => {
    const { writes, output } = terminal();
    let clock = 0;
    const line = progressLine(output, 'Applying', { total: 30, now: () => clock });
    line.begin('a');
    expect(lastLine(writes)).toBe('Applying 0/30 · in flight: a');
    clock = 50;
    line.begin('b'); // within 100 ms of the last drawing: not drawn again
    expect(writes).toHaveLength(1);
    clock = 2000;
    line.end('a');
    expect(lastLine(writes)).toBe('Applying 1/30 · 0.5/s · in flight: b');
    clock = 2200;
    line.begin('c');
    expect(lastLine(writes)).toBe('Applying 1/30 · 0.5/s · in flight: b (+1)');
    line.clear();
    expect(writes.at(-1)).toBe('\r\u001b[2K');
    // After a clear (another line was printed) it is drawn again at once.
    line.end('b');
    expect(lastLine(writes)).toBe('Applying 2/30 · 0.9/s · in flight: c');
  });

  it('learns its total on the way, fits the terminal, and draws the last step at once', () => {
    const { writes, output } = terminal(true, 30);
    let clock = 0;
    const line = progressLine(output, 'Checking tables', { now: () => clock });
    line.begin('warehouse.sales.public.orders');
    expect(lastLine(writes)).toBe('Checking tables 0/? · in fli…');
    expect(lastLine(writes)).toHaveLength(29);
    line.total(20);
    clock = 10;
    line.end('warehouse.sales.public.orders');
    expect(writes).toHaveLength(1);
    for (let i = 0; i < 19; i++) {
      line.begin(`t${i}`);
      line.end(`t${i}`);
    }
    expect(lastLine(writes)).toBe('Checking tables 20/20 · 2000…');
  });

  it('counts as in flight no more than the connections can carry, and shows a short run once it has lasted a second', () => {
    const { writes, output } = terminal();
    let clock = 0;
    const line = progressLine(output, 'Reading', { total: 1000, concurrency: 8, now: () => clock });
    for (let i = 0; i < 1000; i++) line.begin(`c${i}`);
    line.clear(); // drawn again at the next step
    line.end('c0');
    // 999 begun and not ended, 8 connections: 991 wait for one.
    expect(lastLine(writes)).toBe('Reading 1/1000 · in flight: c1 (+7)');
    line.clear();
    const slow = terminal();
    const few = progressLine(slow.output, 'Reading', { total: 2, now: () => clock });
    few.begin('a');
    expect(slow.writes).toEqual([]);
    clock = 1500;
    few.end('a');
    expect(lastLine(slow.writes)).toBe('Reading 1/2 · 0.7/s');
    few.clear();
  });

  it('draws nothing on a pipe, or for a short run', () => {
    const pipe = terminal(false);
    const piped = progressLine(pipe.output, 'Reading', { total: 100 });
    piped.begin('a');
    piped.end('a');
    piped.clear();
    expect(pipe.writes).toEqual([]);
    const tty = terminal();
    const short = progressLine(tty.output, 'Reading', { total: 5 });
    short.begin('a');
    short.end('a');
    short.clear();
    expect(tty.writes).toEqual([]);
  });
});

describe('progress from the real CLI', () => {
  const COUNT = 30;
  async function catalogOf30(desired = 'live') {
    const { assets, contracts, files } = manyTables(COUNT, {
      idPrefix: '5a000000',
      live: 'live',
      desired: () => desired,
    });
    // 30 to 60 ms per request, so that a run lasts long enough for the line to be drawn.
    const opened = await openSandbox({
      seed: editorSeed(assets, contracts),
      faults: { seed: 1, latencyMs: [30, 60], rules: [] },
    });
    cleanups.push(() => opened.sandbox.close());
    const dir = await tempDir(files);
    cleanups.push(() => dir.remove());
    return {
      sandbox: opened.sandbox,
      cwd: dir.dir,
      env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() },
    };
  }

  /**
   * Runs the CLI with `args` on a pseudo-terminal (`script`), as a person's shell does; with
   * `answer`, types `keys` once the terminal shows `after`.
   */
  function onTerminal(
    args: string,
    cwd: string,
    env: Record<string, string>,
    answer?: { after: string; keys: string },
  ): Promise<{ code: number | null; out: string }> {
    const cliPath = path.resolve(import.meta.dirname, '../dist/cli.cjs');
    return new Promise((resolve, reject) => {
      const child = spawn(
        'script',
        ['-qec', `'${process.execPath}' '${cliPath}' ${args}`, '/dev/null'],
        {
          cwd,
          env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', TERM: 'dumb', ...env },
          stdio: [answer === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let typed = false;
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (answer !== undefined && !typed && out.includes(answer.after)) {
          typed = true;
          child.stdin?.write(answer.keys);
        }
      });
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, out }));
    });
  }

  it('plan draws the line on a terminal, and never on a pipe', async () => {
    const { cwd, env } = await catalogOf30();
    const piped = await cliProcess(['plan', '--concurrency', '2'], { cwd, env });
    expect(piped.code).toBe(0);
    expect(piped.err).toBe('');
    expect(piped.out).not.toContain('Reading live contracts');

    const shown = await onTerminal('plan --concurrency 2', cwd, env);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(
      /\r\u001b\[2KReading live contracts [1-9]\d*\/30 · [\d.]+\/s · in flight: db\.s\.t\d+\.dataContract_/,
    );
    // Two connections: never more than two in flight.
    expect(shown.out).not.toMatch(/in flight: \S+ \(\+([2-9]|\d\d+)\)/);
    // Cleared before the plan is printed.
    expect(shown.out).toMatch(/\r\u001b\[2KNo changes\./);
  });

  it('apply asks on a terminal, and Ctrl-D at its prompt cancels: exit 130, nothing sent', async () => {
    // The prompt is the entry's terminal and apply is a bundle of its own in the built CLI: the
    // cancel must still read as one (src/cli/io.ts is one module in a run: scripts/build.mjs).
    const { cwd, env, sandbox } = await catalogOf30('desired');
    const shown = await onTerminal('apply --concurrency 2', cwd, env, {
      after: "Only 'yes' will be accepted:",
      keys: '\u0004',
    });
    expect(shown.code, shown.out).toBe(130);
    expect(shown.out).toContain('Apply cancelled; nothing was sent.');
    expect(shown.out).not.toContain('Internal error');
    expect(sandbox.requests().filter((r) => r.method === 'PATCH')).toEqual([]);
  });

  it('apply of a saved plan shows the check of the plan as it goes, before the apply', async () => {
    const { cwd, env } = await catalogOf30('desired');
    const planned = await cliProcess(['plan', '--out', 'plan.json'], { cwd, env });
    expect(planned.code, planned.err).toBe(0);
    const shown = await onTerminal('apply plan.json --concurrency 2', cwd, env);
    expect(shown.code, shown.out).toBe(0);
    expect(shown.out).toMatch(
      /\r\u001b\[2KChecking the plan: reading its contracts [1-9]\d*\/30 .*in flight: db\.s\.t\d+\.dataContract_/,
    );
    expect(shown.out).toMatch(/\r\u001b\[2KChecking the plan against its files \d+\//);
    expect(shown.out).toMatch(/\r\u001b\[2KApplying [1-9]\d*\/30/);
    expect(shown.out).toContain('Apply complete: 30 changed, 0 unchanged.');
  });
});

describe('Ctrl-C while a saved plan is checked', () => {
  it('ends the check at once, drops the reads still queued, sends nothing and lists nothing', async () => {
    const { assets, contracts, files } = manyTables(60, {
      idPrefix: '5b000000',
      live: 'live',
      desired: () => 'desired',
    });
    const opened = await openSandbox({
      seed: editorSeed(assets, contracts),
    });
    cleanups.push(() => opened.sandbox.close());
    const dir = await tempDir(files);
    cleanups.push(() => dir.remove());
    const env = { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() };
    const planned = await cliProcess(['plan', '--out', 'plan.json'], { cwd: dir.dir, env });
    expect(planned.code, planned.err).toBe(0);
    // A slow catalog: 60 reads over 8 connections take some 8 s.
    opened.sandbox.setFaults({ seed: 1, latencyMs: [1000, 1000], rules: [] });
    const before = opened.sandbox.requests().length;
    const contractReads = () =>
      opened.sandbox
        .requests()
        .slice(before)
        .filter((r) => r.method === 'GET' && r.path.startsWith('/v1/dataContracts/name/')).length;
    const run = cliProcess(['apply', 'plan.json'], {
      cwd: dir.dir,
      env,
      onStart: (child) => {
        const poll = setInterval(() => {
          if (contractReads() > 0) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
        child.once('close', () => clearInterval(poll));
      },
    });
    const done = await run;
    expect(done.code, done.out + done.err).toBe(130);
    expect(done.err).toContain(
      'Interrupted while the saved plan was being checked: nothing was sent.',
    );
    expect(done.out).toBe('');
    expect(done.err).not.toContain('not attempted');
    expect(opened.sandbox.requests().filter((r) => r.method === 'PATCH')).toEqual([]);
    // The queued reads were dropped, not waited for: far fewer than 60 reached the catalog.
    expect(contractReads()).toBeLessThan(30);
  }, 30_000);
});
