// re2js (RE2's linear-time matcher, in JavaScript), loaded on first use: only a settings file
// with a `name-pattern` needs it, and loading it costs a run about as much as the yaml package
// does. Its calls are synchronous, so it is required, not imported: in a build, from the one
// file the build puts beside each output that holds this module (re2js.cjs, scripts/build.mjs);
// in the sources, from the package.
import { createRequire } from 'node:module';
import type * as Re2 from 're2js';

let loaded: typeof Re2 | undefined;

/** The re2js package, loaded once per thread. */
export function re2Library(): typeof Re2 {
  if (loaded === undefined) {
    const load = createRequire(import.meta.url);
    loaded = (import.meta.url.endsWith('.ts') ? load('re2js') : load('./re2js.cjs')) as typeof Re2;
  }
  return loaded;
}
