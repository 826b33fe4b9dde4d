// A progress line on stderr for long runs, only on a terminal (never on a pipe): how many items
// are done of how many, the rate, and what is in flight (the item waiting longest first). A run of
// many items shows it at once, any run once it has lasted a second (a slow catalog never leaves a
// blank screen), redrawn every second while a request is out. It is cleared before other output
// and when the run ends.
import type { ProgressHooks } from '../support/progress.js';
import type { Output } from './io.js';
import { printable } from '../support/printable.js';

export interface ProgressLine extends ProgressHooks {
  total(count: number): void;
  /** Takes the line off the screen (before printing something else, and at the end). */
  clear(): void;
}

export interface ProgressLineOptions {
  /** Items expected, when known at the start. */
  total?: number;
  /** Runs with fewer items show nothing until they have lasted a second (default 20). */
  minTotal?: number;
  /**
   * The most requests out at once (the connection pool's size): items begun beyond it wait for a
   * connection, and are not counted as in flight.
   */
  concurrency?: number;
  /** Milliseconds; Date.now by default (tests pass a clock). */
  now?: () => number;
}

/** Draws at most every REDRAW_MS, so a fast run does not spend its time writing to the terminal. */
const REDRAW_MS = 100;
/** A run this long (ms) shows its line whatever its size, and it is redrawn this often. */
const SLOW_MS = 1000;

function rateText(perSecond: number): string {
  return perSecond >= 10 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

export function progressLine(
  stderr: Output & { columns?: number },
  label: string,
  options: ProgressLineOptions = {},
): ProgressLine {
  const now = options.now ?? Date.now;
  const minTotal = options.minTotal ?? 20;
  const madeAt = now();
  // The rate counts from the first item begun, not from when the line was made.
  let started: number | undefined;
  const inFlight = new Set<string>();
  let expected = options.total;
  let done = 0;
  let shown = false;
  let drawnAt = -Infinity;
  const active = (): boolean =>
    stderr.isTTY === true &&
    (expected === undefined || expected >= minTotal || now() - madeAt >= SLOW_MS);
  // While a request is out, the line is redrawn every second: a slow answer still shows.
  let timer: ReturnType<typeof setInterval> | undefined;
  const stopTimer = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const draw = (force: boolean): void => {
    if (!active()) return;
    const at = now();
    if (!force && at - drawnAt < REDRAW_MS) return;
    drawnAt = at;
    const seconds = (at - (started ?? at)) / 1000;
    const parts = [`${label} ${done}/${expected === undefined ? '?' : expected}`];
    if (seconds > 0 && done > 0) parts.push(`${rateText(done / seconds)}/s`);
    const oldest = inFlight.values().next();
    const out = Math.min(inFlight.size, options.concurrency ?? Infinity);
    if (oldest.done !== true)
      // The item is a name from a file or the catalog: printable, so it cannot move the cursor.
      parts.push(`in flight: ${printable(oldest.value)}${out > 1 ? ` (+${out - 1})` : ''}`);
    let text = parts.join(' · ');
    const width = (stderr.columns ?? 80) - 1;
    if (text.length > width) text = `${text.slice(0, width - 1)}…`;
    shown = true;
    stderr.write(`\r\u001b[2K${text}`);
  };
  return {
    begin(item) {
      started ??= now();
      inFlight.add(item);
      if (timer === undefined && stderr.isTTY === true) {
        timer = setInterval(() => draw(true), SLOW_MS);
        timer.unref();
      }
      draw(false);
    },
    end(item) {
      inFlight.delete(item);
      done += 1;
      if (inFlight.size === 0) stopTimer();
      draw(expected !== undefined && done === expected);
    },
    total(count) {
      expected = count;
    },
    clear() {
      // The next item begun starts it again.
      stopTimer();
      if (shown) stderr.write('\r\u001b[2K');
      shown = false;
      drawnAt = -Infinity;
    },
  };
}
