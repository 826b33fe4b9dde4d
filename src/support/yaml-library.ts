// The yaml package (the positional parser, and the writer of YAML), loaded on first use: a file
// that js-yaml reads and that validates needs none of it, so `contracts validate` of plain files
// never loads it. Required, not imported (src/support/required-once.ts): in a build, from the one file
// the build puts beside each output that holds this module (yaml.cjs, scripts/build.mjs); in the
// sources, from the package.
import type * as Yaml from 'yaml';
import { requiredOnce } from './required-once.js';

/** The yaml package, loaded once per thread. */
export const yamlLibrary = requiredOnce(import.meta.url, 'yaml', './yaml.cjs') as () => typeof Yaml;
