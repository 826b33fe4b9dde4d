// The yaml package, which only the ODCS export as YAML needs, loaded on its first use. Required,
// not imported, so that a bundle holding the sandbox does not hold the package: in a build, from
// the yaml.cjs that the tool's build puts beside each output that holds this module
// (scripts/build.mjs); in the sources, from the package.
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
