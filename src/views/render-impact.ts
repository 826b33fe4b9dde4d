// Who a plan's breaking changes reach, as people read it: each breaking contract's consumers
// downstream and their owners, in the terminal and in markdown; in a pull request comment, the
// owners' GitHub handles where the settings map them, so that they are told. Every name the
// catalog's lineage gave (assets, owners, types) and every reason is made printable first, as
// the plan's own texts are: none can start a line of its own, move the cursor or reorder text.
import { printable } from '../support/printable.js';
import type { Mentions } from '../settings/mentions.js';
import type { Consumer, Owner, Plan, PlannedChange } from '../plan/types.js';

/** The handle an owner is mentioned by, when the settings map one. */
export function handleOf(owner: Owner, mentions: Mentions | undefined): string | undefined {
  const map = owner.type === 'team' ? mentions?.teams : mentions?.users;
  const handle =
    map === undefined ? undefined : Object.hasOwn(map, owner.name) ? map[owner.name] : undefined;
  if (handle === undefined) return undefined;
  return handle.startsWith('@') ? handle : `@${handle}`;
}

function ownersText(
  owners: Consumer['owners'],
  code: (text: string) => string,
  mentions: Mentions | undefined,
): string {
  if (owners === null) return 'owners unknown';
  if (owners.length === 0) return 'no owner';
  return `owned by ${owners
    .map((owner) => {
      const handle = handleOf(owner, mentions);
      return `${printable(owner.type)} ${code(printable(owner.name))}${handle === undefined ? '' : ` (${printable(handle)})`}`;
    })
    .join(', ')}`;
}

/**
 * The lines of a change's consumers: a head, then one line per consumer (indented two spaces);
 * none for a change whose consumers were not asked for.
 */
export function impactLines(
  change: PlannedChange,
  plan: Pick<Plan, 'impact'>,
  code: (text: string) => string = (text) => text,
  mentions?: Mentions,
): string[] {
  const impact = change.impact;
  if (impact === undefined) return [];
  const asset = `${printable(impact.asset.type)} ${code(printable(impact.asset.fullyQualifiedName))}`;
  if (impact.unknown !== undefined)
    return [`consumers of ${asset}: unknown, ${printable(impact.unknown)}`];
  const levels = plan.impact?.depth ?? 0;
  const depth = `${levels} level${levels === 1 ? '' : 's'} of lineage`;
  if (impact.consumers.length === 0) return [`consumers of ${asset}: none downstream (${depth})`];
  return [
    `consumers of ${asset} (${impact.consumers.length} downstream, ${depth}):`,
    ...impact.consumers.map(
      (consumer) =>
        `  ${printable(consumer.type)} ${code(printable(consumer.fullyQualifiedName))} · ${ownersText(consumer.owners, code, mentions)}`,
    ),
  ];
}

/** Every handle the breaking changes' consumers are owned by, once each, in order, printable. */
export function mentionedHandles(plan: Plan, mentions: Mentions | undefined): string[] {
  const handles = new Set<string>();
  for (const change of plan.changes)
    for (const consumer of change.impact?.consumers ?? [])
      for (const owner of consumer.owners ?? []) {
        const handle = handleOf(owner, mentions);
        if (handle !== undefined) handles.add(printable(handle));
      }
  return [...handles];
}

/** The plan-wide note of consumers that could not be looked up; '' when there is none. */
export function impactNote(plan: Pick<Plan, 'impact'>): string {
  const unavailable = plan.impact?.unavailable;
  return unavailable === undefined
    ? ''
    : `Consumers of breaking changes not looked up: ${printable(unavailable)}.`;
}
