// A job summary cut to what GitHub keeps (1 MiB a step): whole when it fits; else a prefix of its
// lines that leaves no code fence or <details> block open, under the limit, then the notice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutNotice, fitSummary, MAX_SUMMARY_BYTES } from '../src/action/summary-limit.js';
import { renderPlanMarkdown } from '../src/views/render-markdown.js';
import { summarize, type Plan, type PlannedChange } from '../src/plan/types.js';

const notice = (omitted: number): string => cutNotice(omitted, 'the rest is elsewhere');

/** A plan whose changes each replace a description, as the renderer shows it. */
function planOf(descriptions: readonly string[]): Plan {
  const changes = descriptions.map((description, i): PlannedChange => ({
    file: `contracts/c${i}.yaml`,
    fullyQualifiedName: `db.s.t${i}.dataContract_c${i}`,
    id: `3c000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    action: 'update',
    liveVersion: 0.1,
    liveHash: 'sha256:0',
    patch: [
      { op: 'test', path: '/version', value: 0.1 },
      { op: 'replace', path: '/description', value: description },
    ],
    breaking: [],
    error: null,
    diff: [{ symbol: '~', field: 'description', before: 'old', after: description }],
    warnings: [],
    notes: [],
  }));
  return {
    formatVersion: 1,
    catalogUrl: 'http://catalog.example',
    catalogProfile: 'spec',
    gitCommit: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    summary: summarize(changes),
    changes,
    checksum: 'sha256:0',
  };
}

/** Lines that open or close a code fence, and <details> blocks opened and closed, in `text`. */
function balance(text: string): { fences: number; details: number } {
  return {
    fences: (text.match(/^`{3,}[\w-]*$/gm) ?? []).length,
    details: text.split('<details>').length - text.split('</details>').length,
  };
}

describe('a job summary cut to what GitHub keeps', () => {
  it('is the markdown itself when it fits', () => {
    const markdown = renderPlanMarkdown(planOf(['a', 'b']));
    expect(fitSummary(markdown, notice)).toBe(markdown);
    expect(fitSummary('x'.repeat(MAX_SUMMARY_BYTES), notice)).toHaveLength(MAX_SUMMARY_BYTES);
  });

  it('past 1 MiB, keeps whole contracts and says how many lines it left out', () => {
    const markdown = renderPlanMarkdown(
      planOf(Array.from({ length: 40 }, () => 'é'.repeat(40_000))),
    );
    expect(Buffer.byteLength(markdown)).toBeGreaterThan(2 * MAX_SUMMARY_BYTES);
    const fitted = fitSummary(markdown, notice);
    expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
    const [kept, said] = fitted.split('\n\n_This summary is cut here');
    expect(markdown.startsWith(kept!)).toBe(true);
    expect(balance(kept!)).toEqual({ fences: expect.any(Number), details: 0 });
    expect(balance(kept!).fences % 2).toBe(0);
    const omitted = markdown.split('\n').length - kept!.split('\n').length;
    expect(said).toBe(
      `: GitHub keeps at most 1 MiB of a step's summary and drops a longer one whole. ${omitted} more lines are left out; the rest is elsewhere._\n`,
    );
  });

  it('for any plan and limit: under the limit, a prefix of whole lines with nothing left open', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 400 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1500, max: 12_000 }),
        (descriptions, limit) => {
          const markdown = renderPlanMarkdown(planOf(descriptions));
          const fitted = fitSummary(markdown, notice, limit);
          if (Buffer.byteLength(markdown) <= limit) {
            expect(fitted).toBe(markdown);
            return;
          }
          expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(limit);
          const at = fitted.lastIndexOf('\n\n_This summary is cut here');
          expect(at).toBeGreaterThanOrEqual(0);
          const kept = fitted.slice(0, at);
          const keptLines = kept === '' ? 0 : kept.split('\n').length;
          expect(markdown.split('\n').slice(0, keptLines).join('\n')).toBe(kept);
          expect(balance(kept).details).toBe(0);
          expect(balance(kept).fences % 2).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
