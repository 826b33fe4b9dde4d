// What a token says of itself: its user and expiry, read from a JWT's claims without verifying it
// (only the catalog can). The token itself is never shown; only the claims named here are read.
import type { Check } from './checks.js';

interface Claims {
  user?: string;
  expiresAt?: number;
}

/** The claims of a JWT (`header.payload.signature`), or undefined for a token that is none. */
function claimsOf(token: string): Claims | undefined {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const record = payload as Record<string, unknown>;
  const user = [record.sub, record.email, record.preferred_username, record.name].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  return {
    ...(user === undefined ? {} : { user }),
    ...(typeof record.exp === 'number' ? { expiresAt: record.exp * 1000 } : {}),
  };
}

/** A span of milliseconds as people say it: "3 days", "5 hours", "12 minutes". */
function span(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const [count, unit] =
    minutes >= 2 * 24 * 60
      ? [Math.round(minutes / (24 * 60)), 'day']
      : minutes >= 120
        ? [Math.round(minutes / 60), 'hour']
        : [minutes, 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The token check: whose it is and until when, an expired one an error; a safe printable user. */
export function tokenCheck(token: string, now: number): Check {
  const claims = claimsOf(token);
  if (claims === undefined)
    return {
      id: 'token',
      status: 'info',
      message:
        'The token is not a JWT, so its user and expiry cannot be read here; the catalog took it',
    };
  const user =
    claims.user === undefined
      ? 'a user it does not name'
      : `user ${claims.user.replace(/[^\x20-\x7e]/g, '?')}`;
  if (claims.expiresAt === undefined)
    return { id: 'token', status: 'ok', message: `The token is for ${user} and never expires` };
  const at = new Date(claims.expiresAt).toISOString();
  if (claims.expiresAt <= now)
    return {
      id: 'token',
      status: 'error',
      message: `The token is for ${user} and expired at ${at}`,
      fix: "set CATALOG_TOKEN to a new token (OpenMetadata: a bot's or your own, from its settings)",
    };
  return {
    id: 'token',
    status: 'ok',
    message: `The token is for ${user} and expires at ${at} (in ${span(claims.expiresAt - now)})`,
  };
}
