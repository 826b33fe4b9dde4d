// A job summary GitHub keeps: it takes at most 1 MiB of one step's summary and drops a longer one
// whole ("$GITHUB_STEP_SUMMARY upload aborted"), leaving an error where the plan should be, and
// the shortened pull request comment points at that summary.

/** GitHub's limit on one step's job summary, in bytes. */
export const MAX_SUMMARY_BYTES = 1024 * 1024;

/** Room kept for the notice that says what was left out (a sentence of this module's). */
const NOTICE_ROOM = 1024;

/** A line that opens a code fence as the renderers write them: three or more backticks and a language. */
const FENCE_OPENING = /^(`{3,})[\w-]*$/;

/**
 * `markdown` as it fits in a job summary: whole when it does; else cut after the last line that
 * leaves no code fence and no `<details>` block open (a table is cut between rows, which leaves
 * it a table), then `notice` with how many lines were left out. With a notice of less than 1 KiB,
 * as `cutNotice` writes, the result is never over `limit` bytes of UTF-8.
 */
export function fitSummary(
  markdown: string,
  notice: (omittedLines: number) => string,
  limit = MAX_SUMMARY_BYTES,
): string {
  if (Buffer.byteLength(markdown, 'utf8') <= limit) return markdown;
  const lines = markdown.split('\n');
  const budget = limit - NOTICE_ROOM;
  let bytes = 0;
  let fence: string | null = null;
  let openDetails = 0;
  let kept = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    bytes += Buffer.byteLength(line, 'utf8') + 1;
    if (bytes > budget) break;
    if (fence !== null) {
      if (line === fence) fence = null;
    } else {
      const opening = FENCE_OPENING.exec(line);
      if (opening !== null) fence = opening[1]!;
      else
        openDetails +=
          (line.match(/<details>/g)?.length ?? 0) - (line.match(/<\/details>/g)?.length ?? 0);
    }
    if (fence === null && openDetails <= 0) kept = i + 1;
  }
  return `${lines.slice(0, kept).join('\n')}\n\n${notice(lines.length - kept)}\n`;
}

/** The notice of a cut summary: how much was left out, GitHub's limit, and where the rest is. */
export function cutNotice(omittedLines: number, rest: string): string {
  return `_This summary is cut here: GitHub keeps at most 1 MiB of a step's summary and drops a longer one whole. ${omittedLines} more line${omittedLines === 1 ? ' is' : 's are'} left out; ${rest}._`;
}
