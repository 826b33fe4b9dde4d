// A package loaded on first use, by require: its calls are synchronous, so it cannot be imported
// when needed. In a build, from the one file the build puts beside each output that holds the
// module asking (scripts/build.mjs, BESIDE); in the sources, from the package.
import { createRequire } from 'node:module';

/**
 * The loader of package `name`, required once per thread on its first call: from the sources
 * (`url`, the asking module's `import.meta.url`, ends in .ts) the package, in a build `beside`
 * (`./name.cjs`), resolved from `url`. The caller says what type the package is.
 */
export function requiredOnce(url: string, name: string, beside: string): () => unknown {
  let loaded: unknown;
  return () => {
    if (loaded === undefined) {
      const load = createRequire(url);
      loaded = url.endsWith('.ts') ? load(name) : load(beside);
    }
    return loaded;
  };
}
