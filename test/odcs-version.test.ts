// An ODCS document's `version` is a semantic version both ways (#68): import writes the catalog's
// MAJOR.MINOR as MAJOR.MINOR.0 and says so, export carries the file's contractVersion, and the
// version gate weighs an ODCS file's version, refusing one it cannot weigh.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { commitAll, git } from './helpers/prune-repository.js';
import { sandboxWithFolder } from './helpers/sandbox.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const CUSTOMERS = 'warehouse.sales.public.customers.dataContract_customers';

describe('the ODCS version', () => {
  it('import writes a semantic version and says how; the gate weighs it and refuses one it cannot', async () => {
    const { cwd, env } = await sandboxWithFolder(cleanups, { profile: 'openmetadata' });
    const imported = await cli(['import', '--format', 'odcs', '--fqn', CUSTOMERS], { cwd, env });
    expect(imported.code, imported.err).toBe(0);
    const file = path.join(cwd, 'contracts', `${CUSTOMERS}.odcs.yaml`);
    const text = await readFile(file, 'utf8');
    const version = /^version: (.*)$/m.exec(text)![1]!;
    expect(version).toMatch(/^\d+\.\d+\.0$/);
    expect(imported.out).toContain(
      `written as ODCS version ${version}: the catalog's MAJOR.MINOR with PATCH 0`,
    );

    git(cwd, 'init', '-q', '-b', 'main');
    commitAll(cwd, 'base');
    // A column dropped (breaking) with a patch bump: refused at the version's line.
    const [major, minor] = version.split('.').map(Number) as [number, number];
    const dropped = text.replace(/ {6}- name: phone\n(?: {8}.*\n)*/m, '');
    expect(dropped).not.toContain('name: phone');
    const patch = `${major}.${minor}.1`;
    await writeFile(file, dropped.replace(/^version: .*$/m, `version: ${patch}`));
    const gated = await cli(['plan', '--changed-since', 'main'], { cwd, env });
    expect(gated.code, gated.out + gated.err).toBe(1);
    expect(gated.err).toContain(
      `version ${version} → ${patch} is a patch bump, but this change needs a`,
    );
    // A version the gate cannot weigh is refused, never let through.
    await writeFile(file, dropped.replace(/^version: .*$/m, `version: "${major}.${minor + 1}"`));
    const unweighed = await cli(['plan', '--changed-since', 'main'], { cwd, env });
    expect(unweighed.code, unweighed.out + unweighed.err).toBe(1);
    expect(unweighed.err).toContain(
      `version ${major}.${minor + 1} is not a semantic version (MAJOR.MINOR.PATCH, such as ${major}.${minor + 1}.0)`,
    );
  });

  it("export carries the file's contractVersion", async () => {
    const { cwd } = await sandboxWithFolder(cleanups);
    await writeFile(
      path.join(cwd, 'c.yaml'),
      'name: c\ncontractVersion: 2.3.0\nfullyQualifiedName: db.c.dataContract_c\nentity: { type: table, fullyQualifiedName: db.c }\n',
    );
    const exported = await cli(['export', '--format', 'odcs', 'c.yaml'], { cwd });
    expect(exported.code, exported.err).toBe(0);
    expect(exported.out).toMatch(/^version: 2\.3\.0$/m);
  });
});
