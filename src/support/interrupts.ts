// Before anything is sent (files loading, the catalog read, the plan made, a prompt), an interrupt
// ends the command at once with a sentence and 130 (SIGINT) or 143 (SIGTERM): exitOnInterrupt.
// An apply that is interrupted stops in order: Ctrl-C (SIGINT) and SIGTERM (CI's timeout, `docker
// stop`, a cancelled GitHub job) both abort a signal, so that nothing new is sent, what is in
// flight finishes and the report is written; the same signal again exits at once. The CLI and the
// Action share it.

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** The exit code shells give a process ended by each signal. */
export const SIGNAL_EXIT_CODES: Readonly<Record<InterruptSignal, number>> = {
  SIGINT: 130,
  SIGTERM: 143,
};

const SIGNALS: readonly InterruptSignal[] = ['SIGINT', 'SIGTERM'];

export interface Interrupt {
  /** Aborted at the first SIGINT or SIGTERM. */
  signal: AbortSignal;
  /** The signal that aborted it, if any. */
  received(): InterruptSignal | null;
  /** Gives both signals back their usual meaning. */
  release(): void;
}

/**
 * Listens for SIGINT and SIGTERM (when `enabled`), saying through `say` what happens: the first
 * aborts the signal; a second exits at once with the signal's exit code.
 */
export function listenForInterrupts(
  say: (text: string) => void,
  enabled = true,
  /** What the command does upon the first one, as said. */
  doing = 'finishing what is in flight and sending nothing further',
): Interrupt {
  const controller = new AbortController();
  let received: InterruptSignal | null = null;
  const second = (signal: InterruptSignal): void => {
    say('\nInterrupted again: exiting now; the change in flight may or may not be in place.\n');
    process.exit(SIGNAL_EXIT_CODES[signal]);
  };
  const first = (signal: InterruptSignal): void => {
    received = signal;
    say(
      `\n${signal === 'SIGINT' ? 'Interrupted' : 'Terminated (SIGTERM)'}: ${doing} (Ctrl-C again to exit now).\n`,
    );
    controller.abort();
    for (const name of SIGNALS) {
      process.removeListener(name, first);
      process.once(name, second);
    }
  };
  if (enabled) for (const name of SIGNALS) process.once(name, first);
  return {
    signal: controller.signal,
    received: () => received,
    release: () => {
      for (const name of SIGNALS) {
        process.removeListener(name, first);
        process.removeListener(name, second);
      }
    },
  };
}

/** Whether the first SIGINT or SIGTERM ends the process at once (armed), or is left to others. */
export interface InterruptExit {
  /** From now on, SIGINT or SIGTERM says the sentence and exits with the signal's exit code. */
  arm(): void;
  /** Leaves both signals to whoever else listens (an ordered stop), or to their usual meaning. */
  disarm(): void;
}

/**
 * For the phases in which nothing has been sent (loading files, reading the catalog, planning, a
 * prompt) there is nothing to finish in order: while armed, SIGINT or SIGTERM writes `sentence`
 * through `say` and exits at once with 130 or 143, never killed by the signal without a word.
 * Does nothing when not `enabled` (a command run inside tests).
 */
export function exitOnInterrupt(
  say: (text: string) => void,
  sentence: (signal: InterruptSignal) => string,
  enabled = true,
): InterruptExit {
  let armed = false;
  const exit = (signal: InterruptSignal): void => {
    say(`\n${sentence(signal)}\n`);
    process.exit(SIGNAL_EXIT_CODES[signal]);
  };
  return {
    arm: () => {
      if (!enabled || armed) return;
      armed = true;
      for (const name of SIGNALS) process.on(name, exit);
    },
    disarm: () => {
      if (!armed) return;
      armed = false;
      for (const name of SIGNALS) process.removeListener(name, exit);
    },
  };
}

/**
 * `run` with exitOnInterrupt(`say`, `sentence`, `enabled`) armed from its start to its end; `run`
 * is given it, to disarm it sooner (where an apply starts sending and stops in order instead).
 */
export async function exitingOnInterrupt<T>(
  say: (text: string) => void,
  sentence: (signal: InterruptSignal) => string,
  enabled: boolean,
  run: (exit: InterruptExit) => Promise<T>,
): Promise<T> {
  const exit = exitOnInterrupt(say, sentence, enabled);
  exit.arm();
  try {
    return await run(exit);
  } finally {
    exit.disarm();
  }
}
