// The repository's settings file, `.contracts.yaml` at the repository root: everything that is not
// a secret (contract paths, the catalog's URL and profile, concurrency, fail-on), validated against
// schemas/settings.schema.json with every problem at its line, like a contract file. A token, a
// secret or a password in it is an error: it would be committed. A pull request may bring it, so
// what it may cost is bounded: its aliases, and its policies' patterns and rules (checked here by
// src/policy/policy-checks.ts). Precedence is flag > environment > this file > default, applied
// where each setting is read.
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { yamlLibrary } from '../support/yaml-library.js';
import { findSettingsFile, SETTINGS_FILE } from './name.js';
import type { Node as YamlNode } from 'yaml';
import { locate, nodeStart, type Segment } from '../contract/positions.js';
import { dottedPath, type Problem } from '../model/problem.js';
import { schemaProblems } from '../contract/schema.js';
import { syntaxReason } from '../contract/syntax-message.js';
import { boundsOf, refusalOf } from './within-repository.js';
import { MAX_ALIAS_COUNT } from '../contract/tree-checks.js';
import { policyProblems } from '../policy/policy-checks.js';
import { validate as validateSettings } from './settings-validator.mjs';
import type { PolicySetting } from '../policy/policies.js';
import type { Mentions } from './mentions.js';

export { SETTINGS_FILE };

/** A breaking change let through the version gate on purpose (acknowledgedBreaks). */
export interface Acknowledgement {
  contract: string;
  change: string;
  reason: string;
  /** YYYY-MM-DD: the last day it lets the break through. */
  expires: string;
  ticket?: string;
}

export interface Settings {
  acknowledgedBreaks?: Acknowledgement[];
  policies?: PolicySetting[];
  paths?: string[];
  catalog?: { url?: string; profile?: 'auto' | 'spec' | 'openmetadata' };
  concurrency?: number;
  failOn?: 'never' | 'breaking' | 'breaking-with-consumers' | 'change';
  impact?: { depth?: number; mentions?: Mentions };
}

export type SettingsLoad =
  | {
      ok: true;
      settings: Settings;
      /** The file as shown, and its folder (absolute): its paths are relative to it. */
      file?: string;
      directory?: string;
    }
  | { ok: false; problems: Problem[]; file: string };

/** A key that names a secret: the file is committed, so none belongs in it. */
const SECRET_KEY = /token|secret|password|credential/i;

/**
 * The settings at `cwd` (none when there is no file), or the file's problems, each at its line;
 * `absolute`, the file, when it was already looked for; `given`, its text when it was not read
 * from disk (from a commit: settings/trusted-ref.ts).
 */
export function loadSettings(
  cwd: string,
  absolute: string | undefined = findSettingsFile(cwd),
  given?: string,
): SettingsLoad {
  if (absolute === undefined) return { ok: true, settings: {} };
  const shown = path.relative(cwd, absolute).split(path.sep).join('/') || SETTINGS_FILE;
  const at = (line: number, column: number, where: string, message: string): Problem => ({
    file: shown,
    line,
    column,
    path: where,
    message,
  });
  // A file (a link) that leads out of the repository or into .git is not read.
  const refusal =
    given === undefined
      ? refusalOf(
          absolute,
          boundsOf(cwd),
          lstatSync(absolute, { throwIfNoEntry: false })?.isSymbolicLink(),
        )
      : undefined;
  if (refusal !== undefined) return { ok: false, file: shown, problems: [at(1, 1, '', refusal)] };
  let text: string;
  try {
    text = given ?? readFileSync(absolute, 'utf8');
  } catch (error) {
    return {
      ok: false,
      file: shown,
      problems: [at(1, 1, '', `the settings file cannot be read: ${(error as Error).message}`)],
    };
  }
  const { LineCounter, parseDocument } = yamlLibrary();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const pos = (offset: number) => {
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
  if (doc.errors.length > 0)
    return {
      ok: false,
      file: shown,
      problems: doc.errors.map((error) => {
        const p = pos(error.pos[0]);
        return at(p.line, p.column, '', `YAML syntax error: ${syntaxReason(error)}`);
      }),
    };
  // An alias bomb (YAML's billion laughs) is refused before anything is expanded, at its first
  // alias: a settings file needs few aliases, if any, as a contract file does.
  const { isAlias, visit } = yamlLibrary();
  let aliases = 0;
  let firstAlias: YamlNode | null = null;
  visit(doc, {
    Alias(_key, node) {
      aliases += 1;
      firstAlias ??= node;
    },
  });
  const aliasAt = pos(nodeStart(firstAlias));
  const unread = (message: string): SettingsLoad => ({
    ok: false,
    file: shown,
    problems: [at(aliasAt.line, aliasAt.column, '', message)],
  });
  if (aliases > MAX_ALIAS_COUNT)
    return unread(
      `the file uses ${aliases} aliases, over the limit of ${MAX_ALIAS_COUNT}; write the values out`,
    );
  let value: unknown;
  try {
    value = (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {}) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return unread(
      isAlias(firstAlias) && /alias/i.test(reason)
        ? 'the aliases in this file expand to far too much data (a YAML alias bomb); write the values out'
        : error instanceof RangeError
          ? 'the file nests too deep to be read; settings need a few levels'
          : 'the file could not be read as data',
    );
  }
  const locateProblem = (segments: readonly Segment[], pointAtKey: boolean, message: string) => {
    const { found, depth } = locate(doc, segments);
    const exact = depth === segments.length;
    const node = exact && pointAtKey && found.keyNode !== null ? found.keyNode : found.node;
    const p = pos(nodeStart(node));
    return at(p.line, p.column, dottedPath(segments), message);
  };
  const secrets = secretProblems(value, [], locateProblem);
  // Patterns that RE2 does not compile, and rules too large or with unknown operations.
  const policies = policyProblems((value as Settings | null)?.policies).map((problem) =>
    locateProblem(problem.at, problem.atKey, problem.message),
  );
  // A secret's key is said once, as a secret, not also as an unknown key.
  const problems = [
    ...secrets,
    ...policies,
    ...schemaProblems(value, locateProblem, validateSettings).filter(
      (problem) => !secrets.some((s) => s.line === problem.line && s.column === problem.column),
    ),
  ];
  if (problems.length > 0)
    return {
      ok: false,
      file: shown,
      problems: problems.sort((a, b) => a.line - b.line || a.column - b.column),
    };
  return { ok: true, settings: value as Settings, file: shown, directory: path.dirname(absolute) };
}

/** Every key, at any depth, that names a secret. */
function secretProblems(
  value: unknown,
  at: Segment[],
  locateProblem: (segments: readonly Segment[], pointAtKey: boolean, message: string) => Problem,
): Problem[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const here = [...at, Array.isArray(value) ? Number(key) : key];
    if (!Array.isArray(value) && SECRET_KEY.test(key))
      return [
        locateProblem(
          here,
          true,
          `${key}: a token or secret does not belong in ${SETTINGS_FILE}, which is committed; set CATALOG_TOKEN in the environment (a CI secret) and remove it from this file`,
        ),
      ];
    return secretProblems(child, here, locateProblem);
  });
}
