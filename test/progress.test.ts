// The progress line: what it says (count, rate, what is in flight), that it is drawn only on a
// terminal, and that the real CLI draws it on a terminal and never on a pipe.
/* eslint-disable no-control-regex -- the terminal sequences a progress line writes are what is checked */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { progressLine } from '../src/cli/progress.js';
import { cliProcess } from './helpers/cli-process.js';
import { openSandbox, seed } from './helpers/sandbox.js';
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
  async function catalogOf30() {
    const { assets, contracts, files } = manyTables(COUNT, {
      idPrefix: '5a000000',
      live: 'live',
      desired: () => 'live',
    });
    // 30 to 60 ms per request, so that a run lasts long enough for the line to be drawn.
    const opened = await openSandbox({
      seed: seed({
        users: [
          {
            name: 'alice',
            permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
          },
        ],
        assets,
        dataProducts: [],
        dataContracts: contracts,
      }),
      faults: { seed: 1, latencyMs: [30, 60], rules: [] },
    });
    cleanups.push(() => opened.sandbox.close());
    const dir = await tempDir(files);
    cleanups.push(() => dir.remove());
    return {
      cwd: dir.dir,
      env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() },
    };
  }

  it('plan draws the line on a terminal, and never on a pipe', async () => {
    const { cwd, env } = await catalogOf30();
    const piped = await cliProcess(['plan', '--concurrency', '2'], { cwd, env });
    expect(piped.code).toBe(0);
    expect(piped.err).toBe('');
    expect(piped.out).not.toContain('Reading live contracts');

    // `script` gives the CLI a pseudo-terminal, as a person's shell does.
    const cliPath = path.resolve(import.meta.dirname, '../dist/cli.js');
    const onTerminal = await new Promise<{ code: number | null; out: string }>(
      (resolve, reject) => {
        const child = spawn(
          'script',
          ['-qec', `'${process.execPath}' '${cliPath}' plan --concurrency 2`, '/dev/null'],
          {
            cwd,
            env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', TERM: 'dumb', ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, out }));
      },
    );
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.out).toMatch(
      /\r\u001b\[2KReading live contracts [1-9]\d*\/30 · [\d.]+\/s · in flight: db\.s\.t\d+\.dataContract_/,
    );
    // Cleared before the plan is printed.
    expect(onTerminal.out).toMatch(/\r\u001b\[2KNo changes\./);
  });
});
