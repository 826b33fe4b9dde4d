// The doctor's pure checks: a token's claims (its user and expiry, never the token), the
// permissions each command needs weighed against a ResourcePermission, and the custom properties
// the tool writes.
import { describe, expect, it } from 'vitest';
import { tokenCheck } from '../src/doctor/token-claims.js';
import { permissionChecks } from '../src/doctor/permissions.js';
import { neededProperties, propertyChecks } from '../src/doctor/custom-properties.js';

const NOW = Date.parse('2026-11-28T06:00:00Z');
const jwt = (claims: Record<string, unknown>) =>
  ['{"alg":"HS256"}', JSON.stringify(claims)]
    .map((part) => Buffer.from(part).toString('base64url'))
    .concat('c2lnbmF0dXJl')
    .join('.');

describe('the token check', () => {
  it('names the user and the expiry, and never the token', () => {
    const token = jwt({ sub: 'alice', exp: NOW / 1000 + 3 * 3600 });
    const check = tokenCheck(token, NOW);
    expect(check).toEqual({
      id: 'token',
      status: 'ok',
      message: 'The token is for user alice and expires at 2026-11-28T09:00:00.000Z (in 3 hours)',
    });
    expect(JSON.stringify(check)).not.toContain(token.split('.')[1]);
  });

  it('is an error once expired, with its fix; a token without exp never expires', () => {
    expect(tokenCheck(jwt({ sub: 'ci-bot', exp: NOW / 1000 - 60 }), NOW)).toMatchObject({
      status: 'error',
      message: 'The token is for user ci-bot and expired at 2026-11-28T05:59:00.000Z',
      fix: expect.stringContaining('CATALOG_TOKEN'),
    });
    expect(tokenCheck(jwt({ email: 'bot@acme.io' }), NOW).message).toBe(
      'The token is for user bot@acme.io and never expires',
    );
  });

  it('says what it cannot read of a token that is not a JWT, and nothing of the token', () => {
    const check = tokenCheck('opaque-personal-access-token', NOW);
    expect(check.status).toBe('info');
    expect(check.message).not.toContain('opaque');
    expect(tokenCheck(jwt({ sub: 'x\u001b[31m' }), NOW).message).toContain('user x?[31m');
  });
});

describe('the permission checks', () => {
  const all = (access: string, operations: string[]) =>
    operations.map((operation) => ({ operation, access }));
  const contractOperations = ['Create', 'Delete', 'ViewAll', 'ViewBasic', 'EditAll'];

  it('fails plan and apply when refused, warns for prune, verify and impact', () => {
    const checks = permissionChecks({
      dataContract: [
        ...all('notAllow', ['Create', 'Delete', 'EditAll']),
        ...all('allow', ['ViewBasic']),
      ],
      table: all('notAllow', ['ViewAll', 'ViewBasic']),
    });
    expect(checks.map((check) => [check.id, check.status])).toEqual([
      ['permission.plan', 'ok'],
      ['permission.apply', 'error'],
      ['permission.prune', 'warning'],
      ['permission.verify', 'warning'],
      ['permission.impact', 'warning'],
    ]);
    expect(checks[1]!.message).toBe(
      'apply: the token may not edit all of a data contract and create data contracts: it lacks EditAll (notAllow) and Create (notAllow) on dataContract',
    );
  });

  it('reads deny as refused and a conditional allow as a warning', () => {
    const checks = permissionChecks({
      dataContract: [
        ...all('allow', contractOperations),
        { operation: 'EditAll', access: 'conditionalAllow' },
      ].filter((p, i, list) => list.findLastIndex((q) => q.operation === p.operation) === i),
      table: all('deny', ['ViewAll', 'ViewBasic']),
    });
    const apply = checks.find((check) => check.id === 'permission.apply')!;
    expect(apply.status).toBe('warning');
    expect(apply.message).toContain('only where a rule');
    expect(checks.find((check) => check.id === 'permission.impact')!.message).toContain(
      'ViewAll (deny)',
    );
  });
});

describe('the custom property checks', () => {
  it('needs contractVersion only where a file declares a version, and says each missing one with its fix', () => {
    expect(neededProperties(false)).toEqual(['managedBy']);
    const checks = propertyChecks(
      [{ name: 'contractVersion', type: 'integer' }],
      neededProperties(true),
    );
    expect(checks.map((check) => check.status)).toEqual(['warning', 'warning']);
    expect(checks[0]!.fix).toContain('contracts doctor --fix');
    expect(checks[1]!.message).toContain('of type integer, not string');
    expect(propertyChecks([{ name: 'managedBy', type: 'string' }], ['managedBy'])[0]!.status).toBe(
      'ok',
    );
  });
});
