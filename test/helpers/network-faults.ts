// The faults a catalog across a network shows, for the convergence tests: 5xx and 429 answers,
// resets, and a PATCH kept but its answer lost, each at a seeded rate up to its own maximum.
import type { FaultRule, FaultSpec } from '@contracts-gitops/sandbox';

/**
 * A fault spec for `seed`, its rates drawn from `next` (in the order the rules are listed, then
 * `extra`'s), with `latencyMs` added to every request.
 */
export function networkFaults(
  seed: number,
  next: () => number,
  latencyMs: [number, number],
  extra: [Omit<FaultRule, 'rate'>, number][] = [],
): FaultSpec {
  const rate = (max: number): number => Math.round(next() * max * 100) / 100;
  const rules: [Omit<FaultRule, 'rate'>, number][] = [
    [{ method: 'GET', kind: 'status', status: 503 }, 0.3],
    [{ kind: 'status', status: 429 }, 0.1],
    [{ kind: 'reset' }, 0.15],
    [{ method: 'PATCH', kind: 'commit-drop' }, 0.35],
    [{ method: 'PATCH', kind: 'status', status: 502 }, 0.2],
    ...extra,
  ];
  return {
    seed,
    latencyMs,
    retryAfterSeconds: 0,
    rules: rules.map(([rule, max]) => ({ ...rule, rate: rate(max) })),
  };
}
