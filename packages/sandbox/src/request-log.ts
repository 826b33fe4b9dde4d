// What the sandbox's handlers answer, and the log of the requests it handled (kept bounded), which
// the admin route /sandbox/requests reports.

/** What a handler answers; the server sends it, or drops it when a fault says so. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** An HTML page instead of JSON (the web UI's page in the openmetadata profile). */
  html?: string;
  /** A YAML document instead of JSON (OpenMetadata's ODCS export as YAML). */
  yaml?: string;
}

/** One handled request, as the admin route /sandbox/requests reports it. */
export interface RequestRecord {
  seq: number;
  method: string;
  path: string;
  /** The query string, without its `?` ('' when there is none). */
  query: string;
  status: number;
  /** `answered`, or a fault: `reset` (cut before any work), `dropped` (done and stored, answer cut). */
  outcome: 'answered' | 'reset' | 'dropped';
  user: string | null;
  /** The If-Match header it carried, when it carried one. */
  ifMatch?: string;
  /** When the request arrived and when it was answered: milliseconds on the sandbox process's monotonic clock (performance.now()). */
  startedAt: number;
  finishedAt: number;
}

/** The request log keeps the latest requests; older ones are dropped in batches of a quarter. */
export const MAX_LOGGED_REQUESTS = 100_000;
export const LOG_TRIM_AT = MAX_LOGGED_REQUESTS + MAX_LOGGED_REQUESTS / 4;

/** The latest requests, at most MAX_LOGGED_REQUESTS. */
export function latest(log: readonly RequestRecord[]): RequestRecord[] {
  return log.slice(-MAX_LOGGED_REQUESTS);
}
