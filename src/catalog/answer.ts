// Reading the catalog's answers: a successful one as JSON of the shape its request expects, an
// error one as the typed error of the catalog's error table, and the waits a Retry-After asks.
import { CatalogError, catalogErrorFor, errorTypeForStatus } from '../model/errors.js';
import { redactThenCut } from './redact.js';
import type { AnswerShape } from './shapes.js';

/** The most of a page that is not JSON (a proxy's or a web server's) an error quotes. */
const PAGE_QUOTED = 300;
/** The most of a JSON error's message an error quotes: whole, for any message a catalog writes. */
const MESSAGE_QUOTED = 4000;

/** An answer as the client received it, after redirects. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * The JSON of a 2xx answer, if it is `shape`; otherwise, and for any other status, the typed
 * error (`request` is `METHOD /v1/…`; the server's message passes through `redact`, before it is
 * cut to what an error quotes: a token the cut went through would match no form redact knows).
 */
export function parseAnswer(
  response: RawResponse,
  request: string,
  shape: AnswerShape,
  redact: (text: string) => string,
): unknown {
  if (response.status >= 200 && response.status < 300) {
    let body: unknown;
    try {
      body = JSON.parse(response.text) as unknown;
    } catch {
      throw new CatalogError(
        response.status,
        'INVALID_RESPONSE',
        `the catalog answered ${response.status} with a body that is not JSON`,
        request,
      );
    }
    const problem = shape.problem(body);
    if (problem !== undefined)
      throw new CatalogError(
        response.status,
        'UNEXPECTED_RESPONSE',
        `the catalog answered ${response.status} with something that is not ${shape.what}: ${problem}${
          // Not the kind of value asked for, or without its first fields: perhaps not the
          // catalog's API at all.
          /^(?:the answer |\w+ is missing)/.test(problem)
            ? "; is the catalog URL that of the catalog's API?"
            : ''
        }`,
        request,
      );
    return body;
  }
  let message = '';
  let errorType = errorTypeForStatus(response.status);
  try {
    const body = JSON.parse(response.text) as {
      message?: unknown;
      responseMessage?: unknown;
      errorType?: unknown;
      code?: unknown;
    };
    // The error table's `message`, or OpenMetadata's `responseMessage` for unhandled errors.
    if (typeof body.message === 'string') message = body.message;
    else if (typeof body.responseMessage === 'string') message = body.responseMessage;
    message = redactThenCut(message, MESSAGE_QUOTED, redact);
    if (typeof body.errorType === 'string' && body.errorType !== '')
      errorType = redactThenCut(body.errorType, 100, redact);
  } catch {
    message = redactThenCut(response.text.replace(/\s+/g, ' ').trim(), PAGE_QUOTED, redact);
  }
  if (message === '') message = `HTTP ${response.status}`;
  throw catalogErrorFor(response.status, errorType, message, request);
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), if any. */
export function retryAfterMs(
  header: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
