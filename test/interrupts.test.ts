// Interrupts before anything is sent: SIGINT or SIGTERM while plan or apply loads its files, reads
// the catalog or waits at a prompt ends the command at once with a sentence and 130 or 143, never
// killed by the signal without a word, and the catalog sees no write. Each runs the built CLI as a
// process against a slow sandbox.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyAtTerminal, cliUnder } from './helpers/apply-at-terminal.js';
import { cliProcess } from './helpers/cli-process.js';
import { openSandbox, writesAmong } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';
import { threeFiles, threeSeed } from './helpers/three-tables.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Three contracts to change, in a catalog that takes `latency` ms to answer each request. */
async function slowCatalog(latency: number) {
  const opened = await openSandbox({
    seed: threeSeed(),
    faults: { seed: 1, latencyMs: [latency, latency], rules: [] },
  });
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir(threeFiles(false));
  cleanups.push(() => dir.remove());
  return {
    sandbox: opened.sandbox,
    cwd: dir.dir,
    env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() },
  };
}

/**
 * Runs the CLI with `args` and sends it `signal` once the catalog has answered its first request:
 * it is then reading the catalog to plan, each answer 1.5 s away.
 */
async function interruptedWhilePlanning(args: string[], signal: NodeJS.Signals) {
  const c = await slowCatalog(1500);
  const run = await cliProcess(args, {
    cwd: c.cwd,
    env: c.env,
    onStart: (child) => killOnFirstRequest(c.sandbox, child, signal),
  });
  // The reads still out when it ended are answered; nothing else arrives.
  await new Promise((resolve) => setTimeout(resolve, 1600));
  return { ...run, cwd: c.cwd, requests: c.sandbox.requests() };
}

function killOnFirstRequest(
  sandbox: { requests(): readonly unknown[] },
  child: ChildProcess,
  signal: NodeJS.Signals,
): void {
  const poll = setInterval(() => {
    if (sandbox.requests().length > 0) {
      clearInterval(poll);
      child.kill(signal);
    }
  }, 10);
  child.once('close', () => clearInterval(poll));
}

describe('an interrupt while planning', () => {
  it('apply, SIGINT: "Interrupted: nothing was sent", exit 130, no write reaches the catalog', async () => {
    const run = await interruptedWhilePlanning(['apply', '--auto-approve'], 'SIGINT');
    expect(run.code, run.out + run.err).toBe(130);
    expect(run.err).toContain('Interrupted: nothing was sent.');
    expect(run.out).toBe('');
    expect(run.requests.length).toBeGreaterThan(0);
    expect(writesAmong(run.requests)).toEqual([]);
  }, 30_000);

  it('apply, SIGTERM (a CI timeout): the same sentence, exit 143, no write', async () => {
    const run = await interruptedWhilePlanning(['apply', '--auto-approve'], 'SIGTERM');
    expect(run.code, run.out + run.err).toBe(143);
    expect(run.err).toContain('Interrupted: nothing was sent (SIGTERM).');
    expect(writesAmong(run.requests)).toEqual([]);
  }, 30_000);

  it('plan, SIGINT and SIGTERM: a sentence, exit 130 and 143, no plan file', async () => {
    const int = await interruptedWhilePlanning(['plan', '--out', 'plan.json'], 'SIGINT');
    expect(int.code, int.out + int.err).toBe(130);
    expect(int.err).toContain('Interrupted: the plan stopped; nothing was sent.');
    expect(existsSync(path.join(int.cwd, 'plan.json'))).toBe(false);
    const term = await interruptedWhilePlanning(['plan'], 'SIGTERM');
    expect(term.code, term.out + term.err).toBe(143);
    expect(term.err).toContain('Interrupted: the plan stopped; nothing was sent (SIGTERM).');
    expect(term.out).toBe('');
    expect(writesAmong([...int.requests, ...term.requests])).toEqual([]);
  }, 30_000);
});

/** Runs `contracts apply` on a pseudo-terminal, and once it asks for yes, `act`s on the terminal's
 * input and the CLI's own process. */
async function actAtPrompt(
  c: { cwd: string; env: Record<string, string> },
  act: (stdin: NodeJS.WritableStream, pid: number) => void,
): Promise<{ code: number | null; out: string; acted: boolean }> {
  let acted = false;
  const run = await applyAtTerminal(c, (out, child) => {
    if (!acted && out.includes("Only 'yes' will be accepted:")) {
      const pid = cliUnder(child.pid!);
      if (pid === undefined) return;
      acted = true;
      act(child.stdin, pid);
    }
  });
  return { ...run, acted };
}

describe('an interrupt at the prompt', () => {
  it('SIGTERM while apply waits for yes at a terminal: "Interrupted: nothing was sent", exit 143, no write', async () => {
    const c = await slowCatalog(0);
    const result = await actAtPrompt(c, (_, pid) => process.kill(pid, 'SIGTERM'));
    expect(result.acted, result.out).toBe(true);
    expect(result.code, result.out).toBe(143);
    expect(result.out).toContain('Interrupted: nothing was sent (SIGTERM).');
    expect(writesAmong(c.sandbox.requests())).toEqual([]);
  }, 30_000);

  it('Ctrl-C typed at the prompt is an interrupt: "Interrupted: nothing was sent", exit 130, no write', async () => {
    const c = await slowCatalog(0);
    const result = await actAtPrompt(c, (stdin) => stdin.write('\u0003'));
    expect(result.acted, result.out).toBe(true);
    expect(result.code, result.out).toBe(130);
    expect(result.out).toContain('Interrupted: nothing was sent.');
    expect(result.out).not.toContain('Apply cancelled');
    expect(writesAmong(c.sandbox.requests())).toEqual([]);
  }, 30_000);
});
