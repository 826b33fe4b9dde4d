// The client's side of the catalog's connections. They live in a thread of their own
// (http-thread.mjs), one for the process, which holds an undici Pool for each client: requests go
// to it as messages and answers come back read whole, so that this thread's work on one answer
// never holds up the others or the next request.
import { startThread } from '../support/threads.js';
import type { RawResponse } from './answer.js';

/** A pool's settings, as undici's Pool takes them. */
export interface PoolSettings {
  /** Connections, one request each: the only bound on requests at once. */
  connections: number;
  connect: { timeout: number };
  headersTimeout: number;
  bodyTimeout: number;
  keepAliveTimeout: number;
}

export interface OutgoingRequest {
  method: string;
  /** The path and query on the catalog's origin. */
  path: string;
  /** The request's own headers, besides those every request of its client carries. */
  headers: Record<string, string>;
  body?: string;
}

/** A request that got no answer, as undici reported it (its error's name, code and message). */
export class ConnectionFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    name: string,
  ) {
    super(message);
    this.name = name;
  }
}

type ThreadMessage =
  | { id: number; status: number; headers: RawResponse['headers']; bytes: ArrayBuffer }
  | { id: number; failure: { name: string; code: string; message: string } }
  | { closed: number };

/** Decodes a body as undici's `text()` does: UTF-8, a bad sequence read as U+FFFD. */
const UTF8 = new TextDecoder();

interface Waiter {
  resolve: (value: RawResponse) => void;
  reject: (error: Error) => void;
}

/** The process's connection thread, started with the first client and again if it stops. */
class ConnectionThread {
  // Its young objects are a few per request (the bodies are outside the heap): a young generation
  // of 4 MB instead of V8's 32 takes 7 to 8 MiB off a large plan's peak memory, for no CPU
  // measured (plan of 10,000 contracts against the sandbox, alternating runs).
  private readonly worker = startThread(import.meta.url, 'http-thread.mjs', {
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  private readonly answers = new Map<number, Waiter>();
  private readonly closings = new Map<number, () => void>();
  private nextId = 0;
  /** Why nothing more can be sent, once the thread has stopped. */
  stopped: Error | undefined;

  constructor() {
    // The thread keeps the process alive only while an answer or a close is awaited.
    this.worker.unref();
    this.worker.on('message', (message: ThreadMessage) => {
      if ('closed' in message) {
        this.closings.get(message.closed)?.();
        this.closings.delete(message.closed);
      } else {
        const waiter = this.answers.get(message.id);
        this.answers.delete(message.id);
        if ('failure' in message) {
          const { code, message: text, name } = message.failure;
          waiter?.reject(new ConnectionFailure(code, text, name));
        } else {
          waiter?.resolve({
            status: message.status,
            headers: message.headers,
            text: UTF8.decode(message.bytes),
          });
        }
      }
      this.settle();
    });
    this.worker.on('error', (error) => this.stop(error));
    this.worker.once('exit', (code) =>
      this.stop(new Error(`the catalog's connection thread stopped (exit code ${code})`)),
    );
  }

  newId(): number {
    return this.nextId++;
  }

  open(
    pool: number,
    origin: string,
    settings: PoolSettings,
    headers: Record<string, string>,
    deadline: number,
  ): void {
    this.worker.postMessage({ open: pool, origin, settings, headers, deadline });
  }

  send(pool: number, request: OutgoingRequest): Promise<RawResponse> {
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    const id = this.newId();
    return new Promise((resolve, reject) => {
      this.answers.set(id, { resolve, reject });
      this.settle();
      this.worker.postMessage({ id, pool, ...request });
    });
  }

  close(pool: number, abandon: boolean): Promise<void> {
    if (this.stopped !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      this.closings.set(pool, resolve);
      this.settle();
      this.worker.postMessage({ close: pool, abandon });
    });
  }

  private settle(): void {
    if (this.answers.size > 0 || this.closings.size > 0) this.worker.ref();
    else this.worker.unref();
  }

  private stop(reason: Error): void {
    this.stopped ??= reason;
    if (thread === this) thread = undefined;
    for (const { reject } of this.answers.values()) reject(reason);
    for (const resolve of this.closings.values()) resolve();
    this.answers.clear();
    this.closings.clear();
  }
}

let thread: ConnectionThread | undefined;

/** One client's connections to one origin: a pool in the connection thread. */
export class Connections {
  private readonly thread: ConnectionThread;
  private readonly pool: number;
  private closed = false;

  /**
   * `headers` go with every request, given once here rather than with each; `deadline` is the
   * most milliseconds a request may take, from going out on a connection to the last byte of its
   * answer (a request past it fails with code REQUEST_DEADLINE).
   */
  constructor(
    origin: string,
    settings: PoolSettings,
    headers: Record<string, string>,
    deadline: number,
  ) {
    thread ??= new ConnectionThread();
    this.thread = thread;
    this.pool = thread.newId();
    thread.open(this.pool, origin, settings, headers, deadline);
  }

  /** Sends `request` on the next free connection, queued behind those already sent. */
  send(request: OutgoingRequest): Promise<RawResponse> {
    if (this.closed) return Promise.reject(new Error('the catalog client is closed'));
    return this.thread.send(this.pool, request);
  }

  /**
   * Lets the requests sent finish, then closes the connections; `abandon` drops them instead (only
   * for reads nobody waits for: never while a write may be out).
   */
  async close(abandon = false): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.thread.close(this.pool, abandon);
  }
}
