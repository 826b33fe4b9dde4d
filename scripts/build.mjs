// Builds the CLI and the library entry with esbuild (code-split so each command loads only what
// it needs), the GitHub Action bundle, and the type declarations with tsc.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { writeValidators } from './generate-validator.mjs';
import path from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const skipTypes = process.argv.includes('--no-types');

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
// The schemas' validators, compiled ahead (a test checks the committed ones are current).
writeValidators();

const banner = {
  // CommonJS dependencies bundled into ESM still call require() for Node's built-ins.
  js: "import { createRequire as __contractsCreateRequire } from 'node:module'; const require = __contractsCreateRequire(import.meta.url);",
};

/**
 * commander requires `node:child_process` when it loads, for the executable subcommands this CLI
 * never declares; that module and the network modules it brings cost every run about 1.5 ms of
 * start-up (`contracts validate` of one file: 84.2 → 83.2 ms, 61 alternating runs). Bundled, its
 * require is answered by a stand-in that loads the real module on commander's first spawn.
 */
const commanderSpawnOnUse = {
  name: 'commander-spawn-on-use',
  setup(bundle) {
    const commander = `${path.sep}node_modules${path.sep}commander${path.sep}`;
    bundle.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes(commander)
        ? { path: 'child_process', namespace: 'spawn-on-use' }
        : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: 'spawn-on-use' }, () => ({
      contents: "exports.spawn = (...args) => require('node:child_process').spawn(...args);",
      loader: 'js',
    }));
  },
};

/**
 * The files loaded at run time from beside the code that loads them, each built beside every
 * output that holds its starter (`new URL('./NAME', import.meta.url)`), wherever the bundler put
 * the starter: the program's own threads, the catalog's connection thread
 * (src/catalog/http-thread.mjs, undici bundled in) and the contract loader's second thread
 * (src/contract/load-thread.ts); and the yaml package, which src/yaml-library.ts requires on first
 * use (a file that js-yaml reads and that validates never loads it).
 */
const BESIDE = [
  {
    starter: 'src/catalog/connections.ts',
    entry: 'src/catalog/http-thread.mjs',
    name: 'http-thread.mjs',
    format: 'esm',
  },
  {
    starter: 'src/contract/load.ts',
    entry: 'src/contract/load-thread.ts',
    name: 'load-thread.mjs',
    format: 'esm',
  },
  {
    starter: 'src/yaml-library.ts',
    entry: createRequire(import.meta.url).resolve('yaml'),
    name: 'yaml.cjs',
    format: 'cjs',
  },
];

async function buildBeside(metafile, options = {}) {
  for (const { starter, entry, name, format } of BESIDE) {
    const dirs = new Set(
      Object.entries(metafile.outputs)
        .filter(([, output]) => starter in output.inputs)
        .map(([file]) => path.dirname(file)),
    );
    if (dirs.size === 0) throw new Error(`no output holds ${starter}`);
    for (const dir of dirs) {
      await build({
        entryPoints: [entry],
        outfile: path.join(dir, name),
        bundle: true,
        format,
        platform: 'node',
        target: 'node20',
        ...(format === 'esm' ? { banner } : {}),
        logLevel: 'warning',
        ...options,
      });
    }
  }
}

const cli = await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __CONTRACTS_VERSION__: JSON.stringify(pkg.version) },
  banner,
  metafile: true,
  logLevel: 'warning',
  plugins: [commanderSpawnOnUse],
});
await buildBeside(cli.metafile, { sourcemap: true });

// The GitHub Action: self-contained files, committed (action/index.js and the threads beside
// it). CI checks that the committed files are exactly what the sources build.
const action = await build({
  entryPoints: ['src/action/main.ts'],
  outfile: 'action/index.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  legalComments: 'eof',
  minify: true,
  define: { __CONTRACTS_VERSION__: JSON.stringify(pkg.version) },
  banner,
  metafile: true,
  logLevel: 'warning',
});
await buildBeside(action.metafile, { minify: true, legalComments: 'eof' });

if (!skipTypes) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
