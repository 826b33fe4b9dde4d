// A progress line on stderr for long runs, only on a terminal; cleared when done.
import type { Output } from './io.js';

export function progressLine(
  stderr: Output,
  label: string,
  minTotal = 20,
): { update: (done: number, total: number) => void; clear: () => void } {
  let shown = false;
  let last = 0;
  return {
    update(done, total) {
      if (stderr.isTTY !== true || total < minTotal) return;
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      stderr.write(`\r\u001b[2K${label} ${done}/${total}`);
    },
    clear() {
      if (shown) stderr.write('\r\u001b[2K');
      shown = false;
    },
  };
}
