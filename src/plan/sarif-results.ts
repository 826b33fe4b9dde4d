// Findings as SARIF 2.1.0, the subset GitHub code scanning takes: one run of this tool, a rule for
// each kind of finding (stable ids), and each result at its file, line and column with a
// fingerprint that does not move when lines around it do, so that a finding keeps its identity in
// the Security tab across pushes.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Problem } from '../model/problem.js';
import type { Finding } from '../model/finding.js';
import { findingText } from './findings.js';

interface Rule {
  id: string;
  name: string;
  description: string;
  level: 'error' | 'warning' | 'note';
}

/** A lone half of a surrogate pair, which no URI can carry (encodeURIComponent throws on it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What separates a path's folders here: `/`, and `\` as well on Windows. */
const SEPARATOR = path.sep === '\\' ? /[\\/]/ : /\//;

/**
 * `file` (a path relative to the repository) as a relative URI reference (RFC 3986): each segment
 * percent-encoded as UTF-8 (a space, `%`, `#`, `?`, `:`, `\` outside Windows, any character
 * outside ASCII), the segments kept apart by `/`. A viewer reading the raw path would take `#` for
 * a fragment, `?` for a query, and `%` for an escape.
 */
function uriReference(file: string): string {
  return file
    .split(SEPARATOR)
    .map((segment) => encodeURIComponent(segment.replace(LONE_SURROGATE, '\uFFFD')))
    .join('/');
}

/** Every kind of finding, by the id it keeps in every release. */
export const SARIF_RULES = {
  invalidContract: {
    id: 'CG001',
    name: 'invalid-contract-file',
    description: 'A contract file does not load or does not match its schema.',
    level: 'error',
  },
  invalidSettings: {
    id: 'CG002',
    name: 'invalid-settings-file',
    description: 'The settings file (.contracts.yaml) does not load or does not match its schema.',
    level: 'error',
  },
  cannotPlan: {
    id: 'CG101',
    name: 'contract-cannot-be-planned',
    description: 'A contract cannot be planned, or is missing in the catalog.',
    level: 'error',
  },
  breaking: {
    id: 'CG102',
    name: 'breaking-change',
    description: 'A change of the contract that may break its consumers.',
    level: 'warning',
  },
  liveAsset: {
    id: 'CG103',
    name: 'live-asset-check',
    description:
      'The contract and its catalog asset disagree (a column it lacks, a type that differs).',
    level: 'warning',
  },
  notKept: {
    id: 'CG104',
    name: 'change-not-kept',
    description: 'A change the catalog would not keep.',
    level: 'warning',
  },
  keptOnlyInGit: {
    id: 'CG105',
    name: 'kept-only-in-git',
    description:
      'Parts of an ODCS document the catalog has no field for: git is their only record.',
    level: 'note',
  },
  policy: {
    id: 'CG107',
    name: 'policy-breach',
    description: "A contract breaks one of the team's policies (.contracts.yaml).",
    level: 'warning',
  },
  versionGate: {
    id: 'CG106',
    name: 'version-not-bumped',
    description: "A contract's version is not bumped as its change needs.",
    level: 'error',
  },
} as const satisfies Record<string, Rule>;

export type SarifRule = keyof typeof SARIF_RULES;

export interface SarifResult {
  rule: SarifRule;
  /** The result's own level, when it is not its rule's (a policy's error). */
  level?: 'error' | 'warning' | 'note';
  message: string;
  file: string;
  line: number;
  column: number;
}

/** The rule of a plan's finding, by its code. */
function ruleOfFinding(finding: Finding): SarifRule {
  const [family] = finding.code.split('.');
  if (family === 'policy') return 'policy';
  if (finding.severity === 'error') return 'cannotPlan';
  if (family === 'breaking') return 'breaking';
  if (family === 'unkept') return 'notKept';
  return finding.code === 'odcs.kept-only-in-git' ? 'keptOnlyInGit' : 'liveAsset';
}

export function findingResults(findings: readonly Finding[]): SarifResult[] {
  return findings.map((finding) => ({
    rule: ruleOfFinding(finding),
    level: finding.severity,
    message: findingText(finding),
    file: finding.file,
    line: finding.line,
    column: finding.column,
  }));
}

/** Problems of files (validation, or the settings file's), or of the version gate. */
export function problemResults(
  problems: readonly Problem[],
  rule: 'invalidContract' | 'versionGate',
): SarifResult[] {
  return problems.map((problem) => ({
    rule: /(^|\/)\.contracts\.yaml$/.test(problem.file) ? 'invalidSettings' : rule,
    message: problem.message,
    file: problem.file,
    line: problem.line,
    column: problem.column,
  }));
}

/**
 * What identifies a result across pushes: its rule, its file and its message without the line
 * numbers it may name (a line moves when others are added above it).
 */
function fingerprint(result: SarifResult): string {
  const message = result.message.replace(/\(line \d+\)/g, '(line)').replace(/:\d+:\d+/g, '');
  return createHash('sha256')
    .update(`${SARIF_RULES[result.rule].id}\u0000${result.file}\u0000${message}`)
    .digest('hex')
    .slice(0, 32);
}

/**
 * A SARIF 2.1.0 log of `results`, one run of this tool at `version`; with `failure`, a run that
 * ended in that error before any result (a catalog unreachable, a setting wrong), said as the
 * invocation's notification, so that code scanning is never handed an empty file.
 */
export function sarifLog(
  results: readonly SarifResult[],
  version: string,
  failure?: string,
): object {
  const rules = Object.values(SARIF_RULES);
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'contracts-gitops',
            version,
            informationUri: 'https://github.com/acme/contracts-gitops',
            rules: rules.map((rule) => ({
              id: rule.id,
              name: rule.name,
              shortDescription: { text: rule.description },
              defaultConfiguration: { level: rule.level },
            })),
          },
        },
        ...(failure === undefined
          ? {}
          : {
              invocations: [
                {
                  executionSuccessful: false,
                  toolExecutionNotifications: [{ level: 'error', message: { text: failure } }],
                },
              ],
            }),
        results: results.map((result) => {
          const rule = SARIF_RULES[result.rule];
          return {
            ruleId: rule.id,
            ruleIndex: rules.findIndex((r) => r.id === rule.id),
            level: result.level ?? rule.level,
            message: { text: result.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: {
                    uri: uriReference(result.file),
                    uriBaseId: '%SRCROOT%',
                  },
                  region: { startLine: result.line, startColumn: result.column },
                },
              },
            ],
            partialFingerprints: { 'contractsGitops/v1': fingerprint(result) },
          };
        }),
      },
    ],
  };
}
