// The settings file as the command line applies it: flag > environment > `.contracts.yaml` >
// default, for the contract paths, the catalog's URL and profile, concurrency and fail-on. The
// file is read once, before a command's action runs (`load`, whose modules — YAML, ajv, JSON
// Logic — are imported then, not at start-up, and only when there is a file, and policies in
// it); a broken file is an error of the command that uses it (SettingsError), and one of the
// problems `validate` reports.
import path from 'node:path';
import type { PolicyCheck, PolicySetting } from '../policy/policies.js';
import { ConfigError } from '../model/errors.js';
import type { Problem } from '../model/problem.js';
import type { Acknowledgement, Settings, SettingsLoad } from './settings-file.js';
import { findSettingsFile, SETTINGS_FILE } from './name.js';
import { confirmFileRouting } from './trusted-ref.js';
import type { Mentions } from './mentions.js';

/** A settings file with problems: each is said at its line, and the command sends nothing. */
export class SettingsError extends ConfigError {
  constructor(readonly problems: Problem[]) {
    super(
      `${SETTINGS_FILE} has ${problems.length} problem${problems.length === 1 ? '' : 's'} (above); fix ${problems.length === 1 ? 'it' : 'them'} first. Nothing was sent.`,
    );
  }
}

export type FailOn = 'never' | 'breaking' | 'breaking-with-consumers' | 'change';
export const FAIL_ON: readonly FailOn[] = [
  'never',
  'breaking',
  'breaking-with-consumers',
  'change',
];

export interface SettledConnection {
  catalogUrl?: string;
  catalogProfile?: string;
  concurrency?: number;
}

/** The settings of one run of the command line, from `cwd` and `env`. */
export function settingsFor(cwd: string, env: Record<string, string | undefined>) {
  let loaded: SettingsLoad | undefined;
  // The file's reader, loaded with the file: it also reads the file as a trusted ref holds it.
  let reader: typeof import('./settings-file.js').loadSettings | undefined;
  // The policy engine's compiler, loaded only for a file that names policies.
  let compilePolicies: ((settings: readonly PolicySetting[]) => PolicyCheck[]) | undefined;
  const load = (): SettingsLoad => {
    if (loaded === undefined) throw new Error('the settings file was used before it was loaded');
    return loaded;
  };
  const settings = (): Settings => {
    const read = load();
    if (!read.ok) throw new SettingsError(read.problems);
    return read.settings;
  };
  /** The file's paths, relative to `cwd` (in the file they are relative to its folder). */
  const filePaths = (): string[] | undefined => {
    const read = settings();
    const directory = (load() as { directory?: string }).directory;
    return read.paths?.map((p) =>
      directory === undefined ? p : path.relative(cwd, path.resolve(directory, p)) || '.',
    );
  };
  const fromEnv = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  return {
    /** Reads the settings file, before a command's action runs. */
    async load(): Promise<void> {
      if (loaded !== undefined) return;
      // No file: nothing to read, and no reader or policy engine to load.
      const absolute = findSettingsFile(cwd);
      if (absolute === undefined) {
        loaded = { ok: true, settings: {} };
        return;
      }
      const { loadSettings } = await import('./settings-file.js');
      reader = loadSettings;
      loaded = loadSettings(cwd, absolute);
      if (loaded.ok && (loaded.settings.policies?.length ?? 0) > 0) {
        ({ compilePolicies } = await import('../policy/policies.js'));
      }
    },
    /** The file's problems (none when it is valid or absent), for `validate`. */
    problems: (): Problem[] => {
      const read = load();
      return read.ok ? [] : read.problems;
    },
    /** The paths given, else the file's, else `contracts`. */
    paths: (given: readonly string[]): string[] =>
      given.length > 0 ? [...given] : (filePaths() ?? ['contracts']),
    /** The paths given, else the file's; none when neither names any (a command's own default). */
    givenPaths: (given: readonly string[]): string[] =>
      given.length > 0 ? [...given] : (filePaths() ?? []),
    /**
     * `options` with the catalog's URL, profile and concurrency from the environment, else the
     * file; the file's URL and profile only where a ref the pull request cannot change says the
     * same (settings/trusted-ref.ts), else a ConfigError before anything is sent.
     */
    connection: <T extends SettledConnection>(options: T): T => {
      const file = settings();
      const concurrencyText = fromEnv('CATALOG_CONCURRENCY');
      let concurrency = options.concurrency;
      if (concurrency === undefined && concurrencyText !== undefined) {
        concurrency = Number(concurrencyText);
        if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
          throw new ConfigError(
            `CATALOG_CONCURRENCY must be a whole number from 1 to 256, got '${concurrencyText}'`,
          );
      }
      concurrency ??= file.concurrency;
      // The environment is read where it always is (connect); the file only fills what neither sets.
      const fileUrl =
        options.catalogUrl === undefined && fromEnv('CATALOG_URL') === undefined
          ? file.catalog?.url
          : undefined;
      const fileProfile =
        options.catalogProfile === undefined && fromEnv('CATALOG_PROFILE') === undefined
          ? file.catalog?.profile
          : undefined;
      confirmFileRouting(cwd, env, { url: fileUrl, profile: fileProfile }, (text, absolute) => {
        const read = reader?.(cwd, absolute, text);
        return read?.ok === true ? (read.settings.catalog ?? {}) : {};
      });
      const url = options.catalogUrl ?? fileUrl;
      const profile = options.catalogProfile ?? fileProfile;
      return {
        ...options,
        ...(url === undefined ? {} : { catalogUrl: url }),
        ...(profile === undefined ? {} : { catalogProfile: profile }),
        ...(concurrency === undefined ? {} : { concurrency }),
      };
    },
    /** The team's policies, compiled: checked on every planned contract. */
    policies: (): PolicyCheck[] => {
      const policies = settings().policies;
      return policies === undefined || compilePolicies === undefined
        ? []
        : compilePolicies(policies);
    },
    /** How many levels of lineage name a breaking change's consumers (the file's, else 2). */
    impactDepth: (): number | undefined => settings().impact?.depth,
    /** The file's GitHub handles of catalog owners. */
    mentions: (): Mentions | undefined => settings().impact?.mentions,
    /** The breaking changes the file lets through the version gate. */
    acknowledgements: (): Acknowledgement[] => settings().acknowledgedBreaks ?? [],
    /** `--fail-on`, else CONTRACTS_FAIL_ON, else the file's, else never. */
    failOn: (flag: string | undefined): FailOn => {
      const value = flag ?? fromEnv('CONTRACTS_FAIL_ON') ?? settings().failOn ?? 'never';
      if (!FAIL_ON.includes(value as FailOn))
        throw new ConfigError(
          `${flag !== undefined ? '--fail-on' : 'CONTRACTS_FAIL_ON'} must be never, breaking, breaking-with-consumers or change, got '${value}'`,
        );
      return value as FailOn;
    },
  };
}

export type SettingsOfRun = ReturnType<typeof settingsFor>;
