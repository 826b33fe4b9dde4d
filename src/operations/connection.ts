// Catalog connection settings for commands that talk to the catalog: the URL from --catalog-url
// or CATALOG_URL, the token only from CATALOG_TOKEN (never a flag, so never in shell history).
import {
  CatalogClient,
  catalogUrlText,
  normalizeCatalogUrl,
  type CatalogClientOptions,
} from '../catalog/client.js';
import { ConfigError } from '../model/errors.js';
import { codecFor, type Codec } from '../profile/codec.js';
import type { ProfileSetting } from '../model/profile.js';
import { requestedProfile, resolveCatalog } from '../profile/profile.js';

export interface ConnectionFlags {
  catalogUrl?: string | undefined;
  /** auto, spec or openmetadata (else CATALOG_PROFILE, else auto). */
  catalogProfile?: string | undefined;
  concurrency?: number | undefined;
}

export interface Connection<C extends CatalogClient = CatalogClient> {
  client: C;
  /** The catalog base URL as shown and stored in plans. */
  catalogUrl: string;
  /** The profile asked for; `auto` is resolved by asking the catalog. */
  profile: ProfileSetting;
  /** The most requests out at once: the client's connections. */
  connections: number;
}

/**
 * Checks the settings and builds a client (`make`'s, else a CatalogClient); throws ConfigError
 * before any request is sent.
 */
export function connect<C extends CatalogClient = CatalogClient>(
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
  defaultConcurrency = 8,
  make: (options: CatalogClientOptions) => C = (options) => new CatalogClient(options) as C,
): Connection<C> {
  const url = flags.catalogUrl ?? env.CATALOG_URL;
  if (url === undefined || url.trim() === '') {
    throw new ConfigError(
      'no catalog: set --catalog-url or CATALOG_URL (for the embedded one, run `contracts sandbox serve`)',
    );
  }
  const token = env.CATALOG_TOKEN;
  if (token === undefined || token.trim() === '') {
    throw new ConfigError(
      'no token: set CATALOG_TOKEN (for the sandbox: export CATALOG_TOKEN=$(contracts sandbox token --user alice))',
    );
  }
  const profile = requestedProfile(flags.catalogProfile, env);
  const base = normalizeCatalogUrl(url.trim());
  const timeout = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const ms = Number(raw);
    if (!Number.isFinite(ms) || ms <= 0)
      throw new ConfigError(`${name} must be a number of milliseconds, got '${raw}'`);
    return ms;
  };
  const requestTimeout = timeout('CATALOG_TIMEOUT_MS');
  const connections = flags.concurrency ?? defaultConcurrency;
  const client = make({
    baseUrl: base.toString(),
    token,
    concurrency: connections,
    ...(requestTimeout === undefined
      ? {}
      : { headersTimeoutMs: requestTimeout, bodyTimeoutMs: requestTimeout }),
  });
  return { client, catalogUrl: catalogUrlText(base), profile, connections };
}

/**
 * One cheap read that says at once whether the catalog is there and takes the token, then the
 * codec of the catalog it is: its profile and, for OpenMetadata, its release.
 */
export async function connectedCodec(
  client: CatalogClient,
  setting: ProfileSetting,
): Promise<Codec> {
  await client.preflight();
  const connected = await resolveCatalog(setting, client);
  return codecFor(connected.profile, connected.release);
}
