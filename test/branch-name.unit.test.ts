// The pull-request-branch input's check: the rules of git's `check-ref-format --branch`.
import { describe, expect, it } from 'vitest';
import { branchNameProblem } from '../src/action/branch-name.js';

const TAKEN = ['contracts/drift', 'drift', 'a/b/c', 'team_x/drift-2026', 'v1.2', 'x@y', 'é/ü'];
const REFUSED = [
  '',
  '-drift',
  '--force',
  'a..b',
  '../x',
  'a b',
  'a\tb',
  'a~1',
  'a^',
  'a:b',
  'a?',
  'a*',
  'a[b',
  'a\\b',
  '/a',
  'a/',
  'a//b',
  'a.',
  '.a',
  'a/.b',
  'a.lock',
  'a.lock/b',
  'a@{1}',
  '@',
  'HEAD',
  'a\u007fb',
];

describe('branchNameProblem', () => {
  it.each(TAKEN)('takes %j', (name) => {
    expect(branchNameProblem(name)).toBeNull();
  });
  it.each(REFUSED)('refuses %j with a reason', (name) => {
    expect(branchNameProblem(name)).toMatch(/\w/);
  });
});
