// The streams and settings a command writes to, passed in so tests can capture every byte.
import type { Output, Streams } from '../views/streams.js';

export type { Output } from '../views/streams.js';

/**
 * Standard output that outlives its reader: once a write fails with EPIPE (`contracts apply |
 * head -n 1`), what follows is written to `fallback`, after a line that says so, so that a command
 * in the middle of its work (an apply) finishes it and still reports.
 */
function outliving(primary: NodeJS.WriteStream, fallback: NodeJS.WriteStream): Output {
  let closed = false;
  primary.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (closed) return;
    closed = true;
    fallback.write(
      '\ncontracts: standard output was closed before the command finished; the rest follows here.\n',
    );
  });
  return {
    get isTTY() {
      return primary.isTTY;
    },
    get closed() {
      return closed;
    },
    write: (text) => (closed ? fallback.write(text) : primary.write(text)),
  };
}

export interface Io extends Streams {
  /** Environment the command reads (CATALOG_URL, CATALOG_TOKEN, NO_COLOR). */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Whether stdin is a terminal a person can answer prompts on. */
  stdinIsTTY: boolean;
  /** Reads one line from the terminal (only called when stdinIsTTY). */
  prompt?: (question: string, signal?: AbortSignal) => Promise<string>;
  /** The process's own Ctrl-C may be caught (the real CLI; not a command run inside tests). */
  interruptible?: boolean;
}

/** The person at the prompt pressed Ctrl-C or Ctrl-D instead of answering. */
export class PromptCancelled extends Error {
  override name = 'PromptCancelled';
  /** `SIGINT` for Ctrl-C (an interrupt), undefined for Ctrl-D (the end of input). */
  constructor(readonly signal?: 'SIGINT') {
    super(signal === undefined ? 'the prompt was closed' : 'the prompt was interrupted');
  }
}

export function processIo(): Io {
  return {
    stdout: outliving(process.stdout, process.stderr),
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    stdinIsTTY: process.stdin.isTTY,
    interruptible: true,
    prompt: async (question, signal) => {
      const { createInterface } = await import('node:readline/promises');
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      // An interrupt while asking leaves the question: the terminal is let go.
      if (signal?.aborted === true) rl.close();
      signal?.addEventListener('abort', () => rl.close(), { once: true });
      try {
        // Ctrl-C (SIGINT) or Ctrl-D (end of input) at the prompt cancels: never an answer.
        return await new Promise<string>((resolve, reject) => {
          rl.once('SIGINT', () => reject(new PromptCancelled('SIGINT')));
          rl.once('close', () => reject(new PromptCancelled()));
          rl.question(question).then(resolve, () => reject(new PromptCancelled()));
        });
      } finally {
        rl.close();
      }
    },
  };
}
