// What a plan finds in a contract, typed: a stable code, a severity, the sentence people read and
// the place in the contract file it is about. Every layer shares this vocabulary, so it imports
// nothing: a producer says what it knows (code, message, pointer) where it knows it, one step
// places the pointer at its line and column, and every rendering reads the result.

/** How much a finding weighs: `error` keeps the contract from being sent. */
export type Severity = 'error' | 'warning' | 'note';

/**
 * Every code a finding may carry, each with what it means (docs/plan-json.md lists them too). A
 * code is kept across releases: renderings and readers of plan JSON may key on it, never on the
 * sentence.
 */
export const FINDING_CODES = {
  'breaking.status-deprecated': "The contract's status changes to Deprecated.",
  'breaking.column-removed': 'A live column is removed.',
  'breaking.column-renamed': 'A live column is renamed (its readers break).',
  'breaking.column-type-changed': "A column's data type changes.",
  'breaking.constraint-dropped': "A column's NOT_NULL or PRIMARY_KEY constraint is dropped.",
  'breaking.semantics-rule-removed': 'A semantics rule is removed.',
  'breaking.sla-removed': 'The SLA, or one of its bounds, is removed.',
  'breaking.sla-weakened': 'An SLA bound is weakened (availability lowered, a duration raised).',
  'breaking.contract-deleted': 'A contract whose file is gone is deleted (--prune).',
  'policy.owner-required': 'The built-in policy owner-required is breached.',
  'policy.description-required': 'The built-in policy description-required is breached.',
  'policy.pii-needs-security-policy': 'The built-in policy pii-needs-security-policy is breached.',
  'policy.sla-floor': 'The built-in policy sla-floor is breached.',
  'policy.name-pattern': 'The built-in policy name-pattern is breached.',
  'policy.rule': "One of the team's own JSON Logic policies is breached (or could not be weighed).",
  'release.status-unsupported': 'The connected OpenMetadata release does not store the status.',
  'release.passthrough-lost':
    'The connected release (OpenMetadata 2.0.0) drops the ODCS passthrough on this change.',
  'unkept.column-property':
    "A column's property changes in place, which OpenMetadata does not keep on its own.",
  'unkept.list-changed': 'A list item changes in place, which OpenMetadata does not keep.',
  'unkept.list-order': "A list's order changes, which OpenMetadata does not keep.",
  'unkept.empty-list': 'An empty list stands for none, which OpenMetadata does not keep.',
  'asset.column-type-differs': "A column's type differs from its catalog asset's.",
  'asset.columns-lacking': 'The contract names columns its catalog asset lacks.',
  'asset.missing': "The contract's asset is not in the catalog.",
  'catalog.live-field-refused':
    'The live contract holds a field the catalog refuses on every PATCH, which the file leaves.',
  'catalog.asset-rule-refused': "The catalog's data asset rules refuse the contract.",
  'catalog.asset-rule-unweighed': 'A data asset rule in force could not be weighed.',
  'reference.unknown': 'An owner, reviewer or quality expectation the catalog does not have.',
  'reference.lookup-failed': 'An owner, reviewer or quality expectation could not be looked up.',
  'reference.cannot-own': 'An owner is a team the catalog lets own nothing.',
  'extension.refused': 'An extension key or value the catalog refuses.',
  'marker.managed-elsewhere':
    'The live contract is managed from another repository, which applying this file takes over.',
  'odcs.kept-only-in-git': 'Parts of an ODCS document the catalog has no field for.',
  'plan.live-unreadable': 'The live contract could not be read.',
  'plan.identity-mismatch': 'The live contract has another asset or name than the file.',
  'plan.missing': 'The catalog lacks the contract, and its asset could not be looked up.',
  'plan.create-refused': 'The contract the catalog lacks cannot be created as the file says.',
  'plan.internal-error': 'The computed patch failed its own verification.',
} as const;

export type FindingCode = keyof typeof FINDING_CODES;

/** A finding at its place: `pointer` in the file's own terms (an ODCS file's: its document's). */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** The sentence people read, without its place. */
  message: string;
  /** The contract file, relative to the working directory. */
  file: string;
  line: number;
  column: number;
  /** JSON pointer (RFC 6901) to what the finding is about; '' for the whole file. */
  pointer: string;
}

/**
 * A finding as its producer makes it: what and where in the contract, not yet placed in a file.
 * `pointer` is into the contract (the file's model); `inDocument` when it is into an ODCS
 * document as written.
 */
export interface Found {
  code: FindingCode;
  severity: Severity;
  message: string;
  pointer: string;
  inDocument?: true;
}

/** `tokens` as a JSON pointer (RFC 6901): `~` and `/` escaped in each. */
export function pointerTo(...tokens: readonly (string | number)[]): string {
  return tokens
    .map((token) => `/${String(token).replaceAll('~', '~0').replaceAll('/', '~1')}`)
    .join('');
}

/** Where a finding about the contract as a whole is: at the name that identifies it. */
export const WHOLE_CONTRACT = '/fullyQualifiedName';

/** Whether a finding is a breaking change (said apart from warnings, though of their severity). */
export function isBreaking(code: FindingCode): boolean {
  return code.startsWith('breaking.');
}
