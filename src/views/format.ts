// The one choice of how a command's result is shown: `--format`, with the older `--json` and
// `--markdown` flags read as the formats they name.
import { ConfigError } from '../model/errors.js';

export type Format = 'human' | 'json' | 'markdown' | 'sarif' | 'github';

export const FORMATS: readonly Format[] = ['human', 'json', 'markdown', 'sarif', 'github'];

export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}

/**
 * The format asked for: SARIF wins (its consumers read nothing else), then `--json`, then
 * `--markdown`, then `--format` (human by default).
 */
export function chosenFormat<F extends Format>(flags: {
  format: F;
  json?: boolean | undefined;
  markdown?: boolean | undefined;
}): F | 'json' | 'markdown' {
  if (flags.format === 'sarif') return flags.format;
  if (flags.json === true || flags.format === 'json') return 'json';
  if (flags.markdown === true || flags.format === 'markdown') return 'markdown';
  return flags.format;
}

/**
 * `--format` of a command that shows a report as `human`, `json` or `markdown` only (show,
 * coverage), read with its `--json` and `--markdown` twins; a ConfigError for another value.
 */
export function reportFormat(flags: {
  format?: string | undefined;
  json?: boolean | undefined;
  markdown?: boolean | undefined;
}): 'human' | 'json' | 'markdown' {
  const format = flags.format ?? 'human';
  if (format !== 'human' && format !== 'json' && format !== 'markdown')
    throw new ConfigError(`--format must be human, json or markdown, got '${format}'`);
  return chosenFormat({ format, json: flags.json, markdown: flags.markdown });
}
