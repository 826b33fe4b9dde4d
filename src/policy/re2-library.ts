// re2js (RE2's linear-time matcher, in JavaScript), loaded on first use: only a settings file
// with a `name-pattern` needs it, and loading it costs a run about as much as the yaml package
// does. Required, not imported (src/support/required-once.ts): in a build, from the one file the build
// puts beside each output that holds this module (re2js.cjs, scripts/build.mjs); in the
// sources, from the package.
import type * as Re2 from 're2js';
import { requiredOnce } from '../support/required-once.js';

/** The re2js package, loaded once per thread. */
export const re2Library = requiredOnce(import.meta.url, 're2js', './re2js.cjs') as () => typeof Re2;
