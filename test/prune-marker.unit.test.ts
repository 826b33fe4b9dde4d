// The marker of a managed contract: a remote's address as people browse it (never its
// credentials), the file's address in it, read back as the repository and the path it names.
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepingMarker, managerOfContract, withMarker, withoutMarker } from '../src/read/marker.js';
import { managerOf, markerFor, repositoryUrl, sameRepository } from '../src/git/repository.js';
import { parseContract } from '../src/contract/parse.js';

describe('a remote as a repository address', () => {
  it.each([
    ['git@github.com:acme/contracts.git', 'https://github.com/acme/contracts'],
    ['ssh://git@github.com:22/acme/contracts.git', 'https://github.com/acme/contracts'],
    [
      'https://x-access-token:ghs_secret@github.com/acme/contracts.git',
      'https://github.com/acme/contracts',
    ],
    ['https://GitHub.com/acme/contracts/', 'https://github.com/acme/contracts'],
    [
      'https://gitlab.example:8443/group/sub/contracts.git',
      'https://gitlab.example:8443/group/sub/contracts',
    ],
    ['git://example.org/acme/contracts', 'https://example.org/acme/contracts'],
  ])('%s → %s', (remote, url) => {
    expect(repositoryUrl(remote)).toBe(url);
  });

  it.each([
    '/srv/git/contracts.git',
    '../contracts',
    'file:///srv/git/contracts.git',
    'https://example.org/contracts',
    'git@github.com:contracts.git',
    'https://github.com/acme/../contracts',
    'ftp://example.org/acme/contracts',
  ])('%s names no forge’s repository: no marker', (remote) => {
    expect(repositoryUrl(remote)).toBeUndefined();
  });

  it('keeps no credential of any https remote', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/),
        fc.stringMatching(/^[A-Za-z0-9_]{6,30}$/),
        (user, secret) => {
          const url = repositoryUrl(`https://${user}:${secret}@github.com/acme/x.git`);
          expect(url).toBe('https://github.com/acme/x');
          expect(url).not.toContain(secret);
        },
      ),
    );
  });
});

describe('the marker', () => {
  const segment = fc
    .stringMatching(/^[A-Za-z0-9_.-]{1,12}$/)
    .filter((s) => s !== '.' && s !== '..');
  it('names the repository and the file it was made for, whatever they are', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'https://github.com/acme/contracts',
          'https://gitlab.example/g/s/r',
          'file:///srv/repo',
        ),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        (url, parts) => {
          const top = '/checkout';
          const marker = markerFor({ url, top }, path.join(top, ...parts));
          expect(managerOf(marker)).toEqual({ repository: url, path: parts.join('/') });
          expect(sameRepository(managerOf(marker)!.repository, url)).toBe(true);
        },
      ),
    );
  });

  it('is none for a value the tool did not write', () => {
    for (const value of [
      undefined,
      42,
      '',
      'https://example.org/page',
      'not a url/blob/HEAD/x.yaml',
    ])
      expect(managerOf(value)).toBeUndefined();
  });

  it('forges ignore case; local paths do not', () => {
    expect(sameRepository('https://github.com/Acme/X', 'https://github.com/acme/x')).toBe(true);
    expect(sameRepository('file:///srv/A', 'file:///srv/a')).toBe(false);
  });

  const parsed = parseContract(
    'name: t\nfullyQualifiedName: db.t.dataContract_t\nentity: { type: table, fullyQualifiedName: db.t }\nextension: { tier: gold }\n',
    'contracts/t.yaml',
  );
  if (!parsed.ok) throw new Error('fixture');
  const file = parsed.value;
  const marker = 'https://github.com/acme/contracts/blob/HEAD/contracts/t.yaml';
  const live = (extension: unknown) => ({
    kind: 'found' as const,
    contract: { id: 'x', version: 0.1, name: 't', extension } as never,
  });

  it('joins the file’s extension (or the live one) and warns when another repository manages the contract', () => {
    expect(withMarker(file, live(undefined), marker).file.contract.extension).toEqual({
      tier: 'gold',
      managedBy: marker,
    });
    const taken = withMarker(
      file,
      live({ managedBy: 'https://github.com/other/repo/blob/HEAD/c.yaml' }),
      marker,
    );
    expect(taken.warning?.message).toContain(
      'managed from another repository (https://github.com/other/repo, c.yaml)',
    );
    expect(taken.warning).toMatchObject({
      code: 'marker.managed-elsewhere',
      severity: 'warning',
      pointer: '/fullyQualifiedName',
    });
    expect(withMarker(file, live({ managedBy: marker }), marker).warning).toBeUndefined();
  });

  it('stays when a run cannot write one, and never reaches a file', () => {
    const kept = keepingMarker(file, live({ managedBy: marker, tier: 'silver' }));
    expect(kept.contract.extension).toEqual({ tier: 'gold', managedBy: marker });
    expect(managerOfContract(kept.contract)?.path).toBe('contracts/t.yaml');
    expect(withoutMarker({ extension: { managedBy: marker } })).toEqual({});
    expect(withoutMarker({ extension: { managedBy: marker, tier: 'gold' } })).toEqual({
      extension: { tier: 'gold' },
    });
  });
});
