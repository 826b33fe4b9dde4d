// Seeded fault injection for the sandbox, so a failing run can be replayed: added latency, error
// statuses (429 with Retry-After, 500, 502, 503, 504), connections reset before any work, and
// "commit then drop": the request is carried out and stored, then the connection is cut.

export type FaultKind = 'status' | 'reset' | 'commit-drop';

export interface FaultRule {
  /** Only requests with this method (GET, PATCH); all when absent. */
  method?: string;
  /** Only requests whose path holds this (`/dataContracts/entity`); all when absent. */
  path?: string;
  kind: FaultKind;
  /** For kind `status`: the status to answer. */
  status?: number;
  /** Chance per request, 0 to 1. */
  rate: number;
}

export interface FaultSpec {
  /** Seed of the random sequence; the same seed and request order give the same faults. */
  seed: number;
  /** Added latency per request, uniformly between the two, in milliseconds. */
  latencyMs?: [number, number];
  /** Seconds sent in Retry-After with 429 and 503 answers. */
  retryAfterSeconds?: number;
  rules: FaultRule[];
}

export type FaultDecision =
  | { kind: 'none'; latencyMs: number }
  | { kind: 'status'; latencyMs: number; status: number; retryAfterSeconds?: number }
  | { kind: 'reset'; latencyMs: number }
  | { kind: 'commit-drop'; latencyMs: number };

const STATUSES = new Set([429, 500, 502, 503, 504]);

/** mulberry32: a small, fast, seeded PRNG (numbers in [0, 1)); the same seed, the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private readonly next: () => number;
  /** How many faults of each kind were injected. */
  readonly injected = { status: 0, reset: 0, 'commit-drop': 0 };

  constructor(readonly spec: FaultSpec) {
    this.next = seededRandom(spec.seed);
  }

  decide(method: string, path = ''): FaultDecision {
    const [low, high] = this.spec.latencyMs ?? [0, 0];
    const latencyMs = high > 0 ? low + this.next() * (high - low) : 0;
    for (const rule of this.spec.rules) {
      if (rule.method !== undefined && rule.method !== method) continue;
      if (rule.path !== undefined && !path.includes(rule.path)) continue;
      if (this.next() >= rule.rate) continue;
      this.injected[rule.kind] += 1;
      if (rule.kind === 'status') {
        const retry =
          (rule.status === 429 || rule.status === 503) && this.spec.retryAfterSeconds !== undefined;
        return {
          kind: 'status',
          latencyMs,
          status: rule.status!,
          ...(retry ? { retryAfterSeconds: this.spec.retryAfterSeconds! } : {}),
        };
      }
      return { kind: rule.kind, latencyMs };
    }
    return { kind: 'none', latencyMs };
  }
}

/**
 * Parses a `--faults` spec: entries separated by `,` or `;`, e.g.
 * `seed=7,latency=0-20,503=0.2,get.429=0.1,retry-after=1,reset=0.05,patch.commit-drop=0.1`.
 * A rule key is `[METHOD.]STATUS`, `[METHOD.]reset` or `[METHOD.]commit-drop`; its value a rate.
 */
export function parseFaultSpec(text: string): FaultSpec {
  const spec: FaultSpec = { seed: 1, rules: [] };
  for (const entry of text
    .split(/[;,]/)
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const [key, value] = entry.split('=', 2).map((part) => part.trim()) as [
      string,
      string | undefined,
    ];
    if (value === undefined || value === '')
      throw new Error(`fault entry '${entry}' needs a value (key=value)`);
    const lower = key.toLowerCase();
    if (lower === 'seed') {
      if (!/^\d+$/.test(value)) throw new Error(`seed must be a whole number, got '${value}'`);
      spec.seed = Number(value);
      continue;
    }
    if (lower === 'latency') {
      const match = /^(\d+)(?:-(\d+))?$/.exec(value);
      if (match === null)
        throw new Error(`latency must be MS or MIN-MAX in milliseconds, got '${value}'`);
      const low = Number(match[1]);
      const high = match[2] === undefined ? low : Number(match[2]);
      if (high < low) throw new Error(`latency ${value}: the maximum is below the minimum`);
      spec.latencyMs = [low, high];
      continue;
    }
    if (lower === 'retry-after') {
      if (!/^\d+$/.test(value))
        throw new Error(`retry-after must be whole seconds, got '${value}'`);
      spec.retryAfterSeconds = Number(value);
      continue;
    }
    const rate = Number(value);
    if (!/^\d*\.?\d+$/.test(value) || rate < 0 || rate > 1)
      throw new Error(`rate of '${key}' must be a number from 0 to 1, got '${value}'`);
    const dot = lower.indexOf('.');
    const method = dot === -1 ? undefined : lower.slice(0, dot).toUpperCase();
    const what = dot === -1 ? lower : lower.slice(dot + 1);
    if (method !== undefined && !['GET', 'PATCH', 'POST', 'DELETE'].includes(method))
      throw new Error(`unknown method '${method}' in '${key}'`);
    const base = method === undefined ? {} : { method };
    if (what === 'reset' || what === 'commit-drop') spec.rules.push({ ...base, kind: what, rate });
    else if (/^\d{3}$/.test(what) && STATUSES.has(Number(what)))
      spec.rules.push({ ...base, kind: 'status', status: Number(what), rate });
    else
      throw new Error(
        `unknown fault '${key}'; use seed, latency, retry-after, reset, commit-drop or one of 429, 500, 502, 503, 504`,
      );
  }
  return spec;
}
