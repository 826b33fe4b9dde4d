// How an error that keeps a contract from being sent ends, and how several of them read as one:
// a plan says everything the catalog would refuse in a contract at once, so that one run tells
// everything to mend.

/** How every error that stops a contract from being sent ends. */
export const NOTHING_SENT = '; nothing will be sent for this contract';

/** `errors` as one: each in turn, joined by ". Also, ", ending once as each ends. */
export function joinRefusals(errors: readonly string[]): string {
  const parts = errors.map((error) =>
    error.endsWith(NOTHING_SENT) ? error.slice(0, -NOTHING_SENT.length) : error,
  );
  return `${parts.join('. Also, ')}${NOTHING_SENT}`;
}
