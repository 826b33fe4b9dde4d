// The yaml package (the positional parser, and the writer of YAML), loaded on first use: a file
// that js-yaml reads and that validates needs none of it, so `contracts validate` of plain files
// never loads it. Its calls are synchronous, so it is required, not imported: in a build, from the
// one file the build puts beside each output that holds this module (yaml.cjs, scripts/build.mjs);
// in the sources, from the package.
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/** The yaml package, loaded once per thread. */
export function yamlLibrary(): typeof Yaml {
  if (loaded === undefined) {
    const load = createRequire(import.meta.url);
    loaded = (import.meta.url.endsWith('.ts') ? load('yaml') : load('./yaml.cjs')) as typeof Yaml;
  }
  return loaded;
}
