// A catalog cannot keep a command running for ever: an answer trickled a byte at a time, or headers
// held open by informational answers, fail each request as a timeout once CATALOG_TIMEOUT_MS has
// passed (headers and body together), and a list whose cursor goes round in a circle, or never
// ends, is refused as the catalog's fault before anything is concluded from it.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { Started } from './helpers/hostile-catalog.js';

const started = new Started();
afterEach(() => started.stop());

/** The most bytes a trickling answer sends (at one each 200 ms: 30 s), so that no test runs on. */
const TRICKLED_AT_MOST = 150;

/** Calls `each` every 200 ms until `socket` closes or TRICKLED_AT_MOST calls, then ends it. */
function trickle(socket: Socket, each: (sent: number) => string): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || sent >= TRICKLED_AT_MOST) {
      clearInterval(timer);
      socket.destroy();
      return;
    }
    socket.write(each(sent));
    sent += 1;
  }, 200);
  socket.on('close', () => clearInterval(timer));
  socket.on('error', () => clearInterval(timer));
}

describe('CATALOG_TIMEOUT_MS bounds each request whole', () => {
  for (const [what, answer] of [
    [
      'a body trickled a byte every 200 ms',
      (socket: Socket) => {
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n',
        );
        trickle(socket, (sent) => (sent === 0 ? '{' : ' '));
      },
    ],
    [
      'headers held open by an informational answer every 200 ms',
      (socket: Socket) => trickle(socket, () => 'HTTP/1.1 102 Processing\r\n\r\n'),
    ],
  ] as const)
    it(`plan ends with a timeout on ${what}`, { timeout: 60_000 }, async () => {
      const url = await started.raw(answer);
      const dir = await started.workspace();
      const began = Date.now();
      const run = await cli(['plan'], {
        cwd: dir,
        env: { CATALOG_URL: url, CATALOG_TOKEN: 'a-token', CATALOG_TIMEOUT_MS: '500' },
      });
      const took = Date.now() - began;
      expect(run.code).toBe(1);
      expect(run.err).toMatch(
        /^Error: GET \/v1\/[\w/]+ timed out \(no complete answer within 500 ms/m,
      );
      // Two reads (the first check, then the catalog's version), each tried five times at most:
      // 10 × 0.5 s, and at most 3 s of waits between tries each.
      expect(took).toBeLessThan(20_000);
    });
});
