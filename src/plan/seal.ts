// A plan's seals: the hash of each live contract it was made from (a saved plan whose contract
// moved is stale), and the checksum over everything the plan says (an edited plan is noticed).
import { createHash, type Hash } from 'node:crypto';
import { MANAGED_FIELDS } from '../model/contract.js';
import type { JsonObject } from '../model/json-value.js';
import {
  PLAN_FORMAT_VERSION,
  summarize,
  type Plan,
  type PlanImpact,
  type PlannedChange,
} from './types.js';
import type { Profile } from '../model/profile.js';

export interface PlanMeta {
  catalogUrl: string;
  catalogProfile: Profile;
  gitCommit: string | null;
  createdAt: string;
  /** What the run says of the catalog as a whole, once (a release newer than the tool knows). */
  notes?: string[];
  /** How the consumers of breaking changes were looked up, when there were any. */
  impact?: PlanImpact;
}

/**
 * Feeds `hash` the JSON of `value` with object keys in a fixed order (the same value, the same
 * text), some kilobytes at a time, so that a plan of thousands of changes is never one string in
 * memory.
 */
function updateCanonical(hash: Hash, value: unknown): void {
  let pending = '';
  const write = (text: string): void => {
    pending += text;
    if (pending.length >= 16_384) {
      hash.update(pending);
      pending = '';
    }
  };
  const visit = (item: unknown): void => {
    if (Array.isArray(item)) {
      write('[');
      for (let index = 0; index < item.length; index++) {
        if (index > 0) write(',');
        visit(item[index]);
      }
      write(']');
    } else if (item !== null && typeof item === 'object') {
      const record = item as JsonObject;
      let separator = '{';
      for (const key of Object.keys(record).sort()) {
        if (record[key] === undefined) continue;
        write(`${separator}${JSON.stringify(key)}:`);
        separator = ',';
        visit(record[key]);
      }
      write(separator === '{' ? '{}' : '}');
    } else write(JSON.stringify(item) ?? '');
  };
  visit(value);
  hash.update(pending);
}

/** What staleness is judged on: identity, version and the fields a file may manage. */
const HASHED_FIELDS = ['id', 'name', 'fullyQualifiedName', 'entity', 'version', ...MANAGED_FIELDS];

/**
 * The live hash of a contract: the SHA-256 of its identity, version and managed fields, each as
 * the catalog sent it (one catalog serializes an unchanged value the same way every time). What
 * the server rewrites on its own (a data-quality run's `latestResult`, `updatedAt`, `href`) does
 * not make a plan stale.
 */
export function hashContract(contract: Readonly<JsonObject>): string {
  const hashed = JSON.stringify(HASHED_FIELDS.map((field) => contract[field] ?? null));
  return `sha256:${createHash('sha256').update(hashed).digest('hex')}`;
}

/**
 * A plan from changes already planned one by one, sealed with its checksum. The checksum is
 * computed the first time it is read (a plan written out or printed as JSON), not for a plan that
 * is only shown.
 */
export function assemblePlan(changes: PlannedChange[], meta: PlanMeta): Plan {
  const content: Omit<Plan, 'checksum'> = {
    formatVersion: PLAN_FORMAT_VERSION,
    ...meta,
    summary: summarize(changes),
    changes,
  };
  let checksum: string | undefined;
  return Object.defineProperty({ ...content }, 'checksum', {
    enumerable: true,
    get: () => (checksum ??= planChecksum(content)),
  }) as Plan;
}

/** `sha256:` over everything a plan says but its checksum, so an edited plan file is noticed. */
export function planChecksum(plan: Omit<Plan, 'checksum'> & { checksum?: string }): string {
  const { checksum: _ignored, ...content } = plan;
  const hash = createHash('sha256');
  updateCanonical(hash, content);
  return `sha256:${hash.digest('hex')}`;
}
