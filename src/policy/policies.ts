// A team's rules as code (`policies:` in .contracts.yaml), checked on every planned contract: each
// a JSON Logic expression (the language OpenMetadata's semantics rules use) over `{contract, live,
// asset}` (the desired contract and the live one in the file's model, `live` null for a create;
// the asset's PII columns), or one of the built-in rules, off unless named (`- use:
// owner-required`). A breach says its rule and the field it concerns; `error` blocks the plan as
// an error of the contract does (nothing is applied), `warning` is said. Both are bounded: a
// pattern runs on RE2 (linear in the name), a rule within a budget of steps (src/policy/
// json-logic.ts); the settings file's reader checked each before (src/policy/policy-checks.ts).
import type { DesiredContract } from '../model/contract.js';
import { ConfigError } from '../model/errors.js';
import { pointerTo, type FindingCode, type Found } from '../model/finding.js';
import { evaluate, LogicBudgetError } from './json-logic.js';
import { compilePattern, DEFAULT_NAME_PATTERN } from './policy-checks.js';

export type PolicySetting =
  | {
      use: BuiltinName;
      severity?: 'error' | 'warning';
      message?: string;
      /** sla-floor: the longest refresh interval and latency allowed, as ISO 8601 durations. */
      refreshFrequency?: string;
      maxLatency?: string;
      /** name-pattern: a regular expression the contract's name must match. */
      pattern?: string;
    }
  | {
      name: string;
      rule: unknown;
      severity: 'error' | 'warning';
      message: string;
    };

export type BuiltinName =
  | 'owner-required'
  | 'description-required'
  | 'pii-needs-security-policy'
  | 'sla-floor'
  | 'name-pattern';

export interface PolicyContext {
  contract: DesiredContract;
  /** The contract in force, in the file's model: the live one with what it inherits. */
  live: Record<string, unknown> | null;
  asset: { piiColumns: string[] };
  /** The fields of the contract in force that come from its data product, and which product. */
  inherited?: { product: string; fields: readonly string[] };
}

/** A breach: at the field the policy concerns (`message`: `policy owner-required (owners): …`). */
export interface Breach extends Found {
  severity: 'error' | 'warning';
}

/** The SLA in force. */
function slaOf(context: PolicyContext): Record<string, unknown> | null | undefined {
  return effective(context, 'sla') as Record<string, unknown> | null | undefined;
}

/**
 * Where a breached field's value comes from, when the contract in force inherits it and the file
 * sets none: what a rule on the file's own fields does not see.
 */
function inheritedSaying(check: Check, context: PolicyContext): string {
  const { inherited } = context;
  if (inherited === undefined || !inherited.fields.includes(check.field)) return '';
  if (context.contract[check.field] !== undefined) return '';
  return ` (${check.field} is inherited from data product ${inherited.product}: \`contract.${check.field}\` is the file's own, which sets none; \`live.${check.field}\` is the value in force; change it in the product's contract, or set the contract's own)`;
}

/** What a field holds in force: the file's value, else (a field the file leaves alone) the live one. */
function effective(context: PolicyContext, field: string): unknown {
  const value = context.contract[field];
  return value === undefined ? context.live?.[field] : value;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = {
  Y: 365 * 86_400,
  M: 30 * 86_400,
  W: 7 * 86_400,
  D: 86_400,
  TH: 3_600,
  TM: 60,
  TS: 1,
};

/** An ISO 8601 duration in seconds (a month as 30 days, a year as 365), undefined if none. */
export function durationSeconds(iso: unknown): number | undefined {
  if (typeof iso !== 'string') return undefined;
  const match =
    /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
      iso,
    );
  if (match === null || iso === 'P' || iso.endsWith('T')) return undefined;
  const units = ['Y', 'M', 'W', 'D', 'TH', 'TM', 'TS'];
  return units.reduce((sum, unit, i) => sum + Number(match[i + 1] ?? 0) * UNIT_SECONDS[unit]!, 0);
}

interface Check {
  name: string;
  /** `policy.<name>` for a built-in policy, `policy.rule` for a team's own. */
  code: FindingCode;
  field: string;
  severity: 'error' | 'warning';
  /** What a breach says; of a contract, when it depends on what the contract holds. */
  message: string | ((context: PolicyContext) => string);
  holds(context: PolicyContext): boolean;
}

function builtin(setting: Extract<PolicySetting, { use: BuiltinName }>): Check[] {
  const severity = setting.severity ?? 'error';
  const said = (fallback: string): string => setting.message ?? fallback;
  switch (setting.use) {
    case 'owner-required':
      return [
        {
          name: setting.use,
          code: `policy.${setting.use}`,
          field: 'owners',
          severity,
          message: said('every contract needs an owner'),
          holds: (c) =>
            Array.isArray(effective(c, 'owners')) &&
            (effective(c, 'owners') as unknown[]).length > 0,
        },
      ];
    case 'description-required':
      return [
        {
          name: setting.use,
          code: `policy.${setting.use}`,
          field: 'description',
          severity,
          message: said('every contract needs a description'),
          holds: (c) => {
            const description = effective(c, 'description');
            return typeof description === 'string' && description.trim() !== '';
          },
        },
      ];
    case 'pii-needs-security-policy':
      return [
        {
          name: setting.use,
          code: `policy.${setting.use}`,
          field: 'security',
          severity,
          message: said(
            'a contract on columns tagged PII needs a security policy (a data classification or an access policy)',
          ),
          holds: (c) => {
            const schema = effective(c, 'schema');
            const named = Array.isArray(schema)
              ? (schema as { name?: unknown }[]).map((column) => column.name)
              : [];
            if (!named.some((name) => c.asset.piiColumns.includes(String(name)))) return true;
            const security = effective(c, 'security') as Record<string, unknown> | null | undefined;
            return (
              security != null &&
              (typeof security.dataClassification === 'string' ||
                typeof security.accessPolicy === 'string' ||
                (Array.isArray(security.policies) && security.policies.length > 0))
            );
          },
        },
      ];
    case 'sla-floor':
      return (['refreshFrequency', 'maxLatency'] as const)
        .filter((key) => setting[key] !== undefined)
        .map((key) => ({
          name: setting.use,
          code: `policy.${setting.use}`,
          field: 'sla',
          severity,
          message: (c: PolicyContext) =>
            said(
              slaOf(c)?.[key] == null
                ? `the SLA's ${key} must be set, at most ${setting[key]!}: the contract in force has none`
                : `the SLA's ${key} must be at most ${setting[key]!}`,
            ),
          holds: (c) => {
            const sla = effective(c, 'sla') as Record<string, unknown> | null | undefined;
            const value = durationSeconds(sla?.[key]);
            return value !== undefined && value <= durationSeconds(setting[key])!;
          },
        }));
    case 'name-pattern': {
      const pattern = setting.pattern ?? DEFAULT_NAME_PATTERN;
      const compiled = compilePattern(pattern);
      // The settings file's reader refused such a pattern already; no caller gets here with one.
      if ('problem' in compiled) throw new ConfigError(`name-pattern: ${compiled.problem}`);
      return [
        {
          name: setting.use,
          code: `policy.${setting.use}`,
          field: 'name',
          severity,
          message: said(`the contract's name must match ${pattern}`),
          holds: (c) => compiled.regex.test(c.contract.name),
        },
      ];
    }
  }
}

/** The first field of the contract a JSON Logic rule reads (`{"var": "contract.owners"}`). */
function fieldRead(rule: unknown): string {
  const found = JSON.stringify(rule).match(/"var"\s*:\s*\[?\s*"contract\.([A-Za-z]+)/);
  return found?.[1] ?? 'fullyQualifiedName';
}

/** The checks of the settings' `policies`. */
export function compilePolicies(settings: readonly PolicySetting[]): Check[] {
  return settings.flatMap((setting) =>
    'use' in setting
      ? builtin(setting)
      : [
          {
            name: setting.name,
            code: 'policy.rule',
            field: fieldRead(setting.rule),
            severity: setting.severity,
            message: setting.message,
            holds: (context: PolicyContext) =>
              Boolean(
                evaluate(setting.rule, {
                  contract: context.contract,
                  live: context.live,
                  asset: context.asset,
                }),
              ),
          },
        ],
  );
}

/**
 * Every breach of `checks` by a planned contract. A rule that cannot be checked (past its budget
 * of steps over this contract) is said as a breach of its severity, saying why.
 */
export function breaches(checks: readonly Check[], context: PolicyContext): Breach[] {
  return checks.flatMap((check) => {
    const said = (message: string): Breach[] => [
      {
        code: check.code,
        severity: check.severity,
        message: `policy ${check.name} (${check.field}): ${message}`,
        pointer: pointerTo(check.field),
      },
    ];
    let holds: boolean;
    try {
      holds = check.holds(context);
    } catch (error) {
      const why = LogicBudgetError.is(error)
        ? `as ${error.message} (docs/gates.md); make the rule simpler`
        : `as its rule fails (${(error as Error).message})`;
      return said(`cannot be checked on this contract, ${why}`);
    }
    if (holds) return [];
    const message = typeof check.message === 'string' ? check.message : check.message(context);
    return said(`${message}${inheritedSaying(check, context)}`);
  });
}

export type { Check as PolicyCheck };
