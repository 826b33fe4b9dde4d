// `contracts sandbox serve` and `contracts sandbox token`: the built CLI starts the sandbox
// (packages/sandbox, whose own tests hold what it answers) and mints tokens it takes.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET } from './helpers/sandbox.js';
import { spawnSandboxProcess } from './helpers/sandbox-process.js';

describe('sandbox serve and token (CLI)', () => {
  it('prints listening on the first line, answers with a minted token, and stops on SIGTERM', async () => {
    const cli = path.resolve(import.meta.dirname, '../dist/cli.cjs');
    const sandboxProcess = spawnSandboxProcess(['--secret', SECRET]);
    const url = await sandboxProcess.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const minted = await new Promise<string>((resolve) => {
      const tokenChild = spawn(process.execPath, [
        cli,
        'sandbox',
        'token',
        '--user',
        'alice',
        '--secret',
        SECRET,
      ]);
      let out = '';
      tokenChild.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      tokenChild.on('exit', () => resolve(out.trim()));
    });
    const response = await fetch(
      `${url}/v1/dataContracts/name/warehouse.sales.public.orders.dataContract_orders`,
      { headers: { authorization: `Bearer ${minted}` } },
    );
    expect(response.status).toBe(200);
    const exitCode = await sandboxProcess.stop();
    expect(exitCode).toBe(0);
  });
});
