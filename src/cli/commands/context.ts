// What every command's declaration is given, and the catalog flags several commands share.
import type { Command } from 'commander';
import type { SettingsOfRun } from '../../settings/settled.js';
import type { Io } from '../io.js';
import { parseConcurrency } from '../parse-options.js';

/** What a command's action needs beyond its flags: the streams, the settings file, the exit. */
export interface CommandContext {
  io: Io;
  /** The repository's .contracts.yaml: flag > environment > file > default. */
  file: SettingsOfRun;
  /** Whether colour is allowed (`--no-color` not given); read when the action runs. */
  color: () => boolean;
  setExit: (code: number) => void;
}

/** `command` with the flags that name the catalog and its profile (the token: CATALOG_TOKEN only). */
export function withCatalogOptions(command: Command): Command {
  return command
    .option(
      '--catalog-url <url>',
      'catalog base URL (default: CATALOG_URL); the token comes from CATALOG_TOKEN',
    )
    .option(
      '--catalog-profile <profile>',
      'auto, spec or openmetadata (default: CATALOG_PROFILE, else auto)',
    );
}

/** `command` with the flags of the commands that plan: plan, drift and apply. */
export function withPlanningOptions(command: Command): Command {
  return command
    .option(
      '--catalog-url <url>',
      'catalog base URL; /v1 is added (default: CATALOG_URL). The token comes from CATALOG_TOKEN',
    )
    .option(
      '--catalog-profile <profile>',
      'auto, spec or openmetadata: the shapes the catalog stores (default: CATALOG_PROFILE, else auto: asks the catalog its version)',
    )
    .option(
      '--concurrency <n>',
      'requests at once (default 8 for reads; apply sends one PATCH at a time unless given)',
      parseConcurrency,
    )
    .option(
      '--changed-since <ref>',
      'only plan files changed since this git ref (all files are still validated)',
    )
    .option(
      '--strict',
      'treat warnings as errors (columns the asset lacks or types that differ, changes the catalog would not keep, rules it could not be asked)',
    )
    .option('--json', 'machine output on stdout, nothing else on stdout');
}
