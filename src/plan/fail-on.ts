// What fails a plan beside its errors (`--fail-on`, the Action's `fail-on`): never, any breaking
// change, or any change; shared by plan, drift and the Action.
import type { FailOn } from '../settings/settled.js';
import { changeCount, type Plan } from './types.js';

/** Why `failOn` fails `plan` (exit 1), or undefined when it does not. */
export function failOnBreach(plan: Plan, failOn: FailOn): string | undefined {
  const breaking = plan.changes.reduce((n, change) => n + change.breaking.length, 0);
  if (failOn === 'breaking' && breaking > 0)
    return `the plan has ${breaking} breaking change${breaking === 1 ? '' : 's'}, and fail-on is breaking`;
  const changes = changeCount(plan);
  if (failOn === 'change' && changes > 0)
    return `the plan has ${changes} change${changes === 1 ? '' : 's'}, and fail-on is change`;
  return undefined;
}
