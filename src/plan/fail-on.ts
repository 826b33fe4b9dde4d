// What fails a plan beside its errors (`--fail-on`, the Action's `fail-on`): never, any breaking
// change, a breaking change with consumers downstream (a break nobody reads does not block; one
// whose consumers could not be looked up does not either, and says why), or any change; shared
// by plan, drift and the Action.
import type { FailOn } from '../settings/settled.js';
import { changeCount, type Plan } from './types.js';

/** Why `failOn` fails `plan` (exit 1), or undefined when it does not. */
export function failOnBreach(plan: Plan, failOn: FailOn): string | undefined {
  const breaking = plan.changes.reduce((n, change) => n + change.breaking.length, 0);
  if (failOn === 'breaking' && breaking > 0)
    return `the plan has ${breaking} breaking change${breaking === 1 ? '' : 's'}, and fail-on is breaking`;
  if (failOn === 'breaking-with-consumers') {
    const reaching = plan.changes.filter(
      (change) => change.breaking.length > 0 && (change.impact?.consumers.length ?? 0) > 0,
    );
    if (reaching.length > 0) {
      const consumers = reaching.reduce((n, change) => n + change.impact!.consumers.length, 0);
      return `${reaching.length} contract${reaching.length === 1 ? '' : 's'} with breaking changes ${reaching.length === 1 ? 'has' : 'have'} ${consumers} consumer${consumers === 1 ? '' : 's'} downstream (${reaching.map((change) => change.fullyQualifiedName).join(', ')}), and fail-on is breaking-with-consumers`;
    }
  }
  const changes = changeCount(plan);
  if (failOn === 'change' && changes > 0)
    return `the plan has ${changes} change${changes === 1 ? '' : 's'}, and fail-on is change`;
  return undefined;
}
