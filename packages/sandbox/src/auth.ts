// JWT bearer authentication of the sandbox: HS256 only, verified with jose; the subject names a
// seed user whose permissions decide what it may do.
import { SignJWT, errors, jwtVerify } from 'jose';
import { ApiError } from './http.js';
import type { Permission, SeedUser } from './seed.js';

/** The secret the sandbox uses when none is given. For local use only. */
export const DEFAULT_SANDBOX_SECRET = 'contracts-sandbox-local-secret';

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** Mints an HS256 token for `user`, valid for `expiresIn` (a jose time span such as "1h"). */
export async function mintToken(
  user: string,
  secret: string,
  expiresIn: string | number = '1h',
): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user)
    .setIssuer('contracts-sandbox')
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(keyOf(secret));
}

/** The user a request's Authorization header proves, or a 401 with the real server's messages. */
export async function authenticate(
  header: string | undefined,
  secret: string,
  users: ReadonlyMap<string, SeedUser>,
): Promise<SeedUser> {
  if (header === undefined || header.trim() === '')
    throw new ApiError(401, 'Not Authorized! Token not present');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) throw new ApiError(401, 'Not Authorized! Token not present');
  let subject: string | undefined;
  try {
    const { payload } = await jwtVerify(match[1]!, keyOf(secret), {
      algorithms: ['HS256'],
      issuer: 'contracts-sandbox',
      // A token without an expiry would be good forever: refused, as the real server does.
      requiredClaims: ['exp'],
    });
    subject = payload.sub;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new ApiError(401, 'Expired token!');
    throw new ApiError(401, 'Not Authorized! Invalid token.');
  }
  const user = subject === undefined ? undefined : users.get(subject);
  if (user === undefined) throw new ApiError(401, 'Not Authorized! Invalid token.');
  return user;
}

/** Refuses (403, the server's words) a user without `permission`; an admin may do everything. */
export function requirePermission(user: SeedUser, permission: Permission, operation: string): void {
  if (user.admin !== true && !user.permissions.includes(permission)) {
    throw new ApiError(
      403,
      `Principal: CatalogPrincipal{name='${user.name}'} operations [${operation}] not allowed`,
    );
  }
}
