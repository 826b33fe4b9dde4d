// `contracts sandbox serve` and `contracts sandbox token`: the embedded catalog.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../model/errors.js';
import {
  checkSeed,
  DEFAULT_SANDBOX_SECRET,
  mintToken,
  parseFaultSpec,
  RELEASE_BEHAVIOURS,
  ReleaseVariantError,
  type ReleaseVariants,
  SeedError,
  startSandbox,
  type Sandbox,
} from '@contracts-gitops/sandbox';
import type { Io } from './io.js';

export interface ServeOptions {
  host: string;
  port: number;
  seed?: string;
  secret?: string;
  data?: string;
  faults?: string;
  /** spec (default) or openmetadata. */
  profile?: string;
  /** Under openmetadata: the release played (2.0.9 by default). */
  openmetadataVersion?: string;
  /** Under openmetadata: `name=on|off` for each unconfirmed behaviour to play one way. */
  openmetadataVariant?: string[];
}

/** `--openmetadata-variant name=on|off`, repeated, as the sandbox takes it. */
function variantsFrom(flags: readonly string[]): ReleaseVariants {
  const variants: Record<string, boolean> = {};
  for (const flag of flags) {
    const match = /^([A-Za-z]+)=(on|off)$/.exec(flag.trim());
    if (match === null)
      throw new ConfigError(
        `--openmetadata-variant takes NAME=on or NAME=off (one of ${Object.keys(RELEASE_BEHAVIOURS).join(', ')}), got '${flag}'`,
      );
    variants[match[1]!] = match[2] === 'on';
  }
  return variants;
}

function secretFrom(flag: string | undefined, io: Io): string {
  return flag ?? io.env.SANDBOX_SECRET ?? DEFAULT_SANDBOX_SECRET;
}

export async function readSeedFile(
  file: string,
  cwd: string,
): Promise<ReturnType<typeof checkSeed>> {
  let text: string;
  try {
    text = await readFile(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read seed file ${file}: ${(error as Error).message}`);
  }
  try {
    return checkSeed(JSON.parse(text));
  } catch (error) {
    if (error instanceof SeedError || error instanceof SyntaxError)
      throw new ConfigError(`seed file ${file}: ${error.message}`);
    throw error;
  }
}

/** Starts the sandbox and returns it; the caller decides how long it runs. */
export async function serveSandbox(options: ServeOptions, io: Io): Promise<Sandbox> {
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new ConfigError(
      `--port must be a whole number from 0 to 65535, got ${String(options.port)}`,
    );
  }
  const seed = options.seed === undefined ? undefined : await readSeedFile(options.seed, io.cwd);
  let faults;
  try {
    faults = options.faults === undefined ? undefined : parseFaultSpec(options.faults);
  } catch (error) {
    throw new ConfigError(`--faults: ${(error as Error).message}`);
  }
  const profile = options.profile ?? 'spec';
  if (profile !== 'spec' && profile !== 'openmetadata')
    throw new ConfigError(`--profile must be spec or openmetadata, got '${profile}'`);
  const release = options.openmetadataVersion;
  if (release !== undefined && profile !== 'openmetadata')
    throw new ConfigError('--openmetadata-version needs --profile openmetadata');
  const variantFlags = options.openmetadataVariant ?? [];
  if (variantFlags.length > 0 && profile !== 'openmetadata')
    throw new ConfigError('--openmetadata-variant needs --profile openmetadata');
  const variants = variantsFrom(variantFlags);
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      profile,
      ...(release === undefined ? {} : { openmetadataVersion: release }),
      ...(variantFlags.length === 0 ? {} : { openmetadataVariants: variants }),
      host: options.host,
      port: options.port,
      secret: secretFrom(options.secret, io),
      ...(seed === undefined ? {} : { seed }),
      ...(faults === undefined ? {} : { faults }),
      ...(options.data === undefined ? {} : { dataFile: path.resolve(io.cwd, options.data) }),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new ConfigError(
        `port ${options.port} on ${options.host} is already in use; pick another or use --port 0`,
      );
    if (error instanceof SeedError || error instanceof SyntaxError)
      throw new ConfigError(`data file ${options.data ?? ''}: ${error.message}`);
    if (['ENOTFOUND', 'EADDRNOTAVAIL', 'EAI_AGAIN'].includes(code ?? ''))
      throw new ConfigError(
        `--host ${options.host} is not an address of this machine (${code ?? ''}); use 127.0.0.1, or 0.0.0.0 for every interface`,
      );
    if (
      options.data !== undefined &&
      ['EISDIR', 'ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS'].includes(code ?? '')
    )
      throw new ConfigError(
        `--data ${options.data}: ${code === 'EISDIR' ? 'is a folder; name a file in it, such as ' + path.join(options.data, 'sandbox-state.json') : code === 'ENOENT' || code === 'ENOTDIR' ? 'its folder does not exist; create it first' : 'cannot be written here'} (${code ?? ''})`,
      );
    if (error instanceof Error && error.message.startsWith('seed contract '))
      throw new ConfigError(error.message);
    // The release is checked first, before anything starts (the port is checked above).
    if (error instanceof RangeError && (release !== undefined || variantFlags.length > 0))
      throw new ConfigError(
        `${error instanceof ReleaseVariantError ? '--openmetadata-variant' : '--openmetadata-version'}: ${error.message}`,
      );
    throw error;
  }
  io.stdout.write(`listening on ${sandbox.url}\n`);
  return sandbox;
}

/** Runs until SIGINT or SIGTERM, then closes cleanly. */
export async function runServe(options: ServeOptions, io: Io): Promise<number> {
  const sandbox = await serveSandbox(options, io);
  // A token must be signed with this sandbox's secret: the hint names where it came from, never
  // the secret itself.
  const secretHint =
    options.secret !== undefined
      ? ' --secret <the same --secret>'
      : io.env.SANDBOX_SECRET !== undefined
        ? ' (with the same SANDBOX_SECRET set)'
        : '';
  io.stderr.write(
    `catalog interface at ${sandbox.url}/v1, admin routes at ${sandbox.root}/sandbox (users: ${[...sandbox.store.users.keys()].join(', ')}); mint a token with: contracts sandbox token --user alice${secretHint}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sandbox.close();
  return 0;
}

export interface TokenOptions {
  user: string;
  secret?: string;
  expiresIn: string;
  /** The seed file the sandbox serves: the user must be one of its users. */
  seed?: string;
}

export async function runToken(options: TokenOptions, io: Io): Promise<number> {
  if (
    !/^\d+\s*(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|week|weeks|y|yr|yrs|year|years)$/i.test(
      options.expiresIn,
    )
  ) {
    throw new ConfigError(
      `--expires-in must be a duration such as 30m, 1h or 7d, got '${options.expiresIn}'`,
    );
  }
  // A token for a user the sandbox does not know is refused by it (401): said before minting.
  if (options.seed !== undefined) {
    const users = (await readSeedFile(options.seed, io.cwd)).users.map((user) => user.name);
    if (!users.includes(options.user))
      throw new ConfigError(
        `--user ${options.user} is not a user of ${options.seed} (${users.join(', ')}); the sandbox would refuse its token`,
      );
  } else {
    const { demoSeed } = await import('@contracts-gitops/sandbox/demo-catalog');
    const users = demoSeed().users.map((user) => user.name);
    if (!users.includes(options.user))
      io.stderr.write(
        `warning: ${options.user} is not a user of the built-in demo catalog (${users.join(', ')}); a sandbox serving it refuses this token. With --seed FILE, name the seed the sandbox serves.\n`,
      );
  }
  io.stdout.write(
    `${await mintToken(options.user, secretFrom(options.secret, io), options.expiresIn)}\n`,
  );
  return 0;
}
