// Builds the CLI (CommonJS bundles, each command's loaded only when it runs), the library entry,
// the GitHub Action bundle, and the type declarations with tsc.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
 * never declares; that module and the network modules it brings cost every run 1 to 2 ms of
 * start-up (`contracts validate` of one file: 87.6 → 85.9 ms and 84.2 → 83.2 ms, two series of 61
 * alternating runs). Bundled, its require is answered by a stand-in that loads the real module on
 * commander's first spawn.
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
 * (src/read/load-thread.ts); the yaml package, which src/support/yaml-library.ts requires on first
 * use (a file that js-yaml reads and that validates never loads it); and re2js, which
 * src/policy/re2-library.ts requires for the first `name-pattern` (no other run loads it).
 */
const BESIDE = [
  {
    starter: 'src/catalog/connections.ts',
    entry: 'src/catalog/http-thread.mjs',
    name: 'http-thread.mjs',
    format: 'esm',
  },
  {
    starter: 'src/read/load.ts',
    entry: 'src/read/load-thread.ts',
    name: 'load-thread.mjs',
    format: 'esm',
  },
  {
    starter: 'src/support/yaml-library.ts',
    entry: createRequire(import.meta.url).resolve('yaml'),
    name: 'yaml.cjs',
    format: 'cjs',
  },
  {
    starter: 'src/policy/re2-library.ts',
    entry: createRequire(import.meta.url).resolve('re2js'),
    name: 're2js.cjs',
    format: 'cjs',
  },
];

/**
 * The same, for the outputs that hold the sandbox (the CLI's and the library entry, never the
 * Action): the yaml package, which packages/sandbox/src/yaml-library.ts requires for the first
 * ODCS export as YAML.
 */
const SANDBOX_BESIDE = [
  {
    starter: 'packages/sandbox/src/yaml-library.ts',
    entry: createRequire(import.meta.url).resolve('yaml'),
    name: 'yaml.cjs',
    format: 'cjs',
  },
];

async function buildBeside(metafile, options = {}, beside = BESIDE) {
  for (const { starter, entry, name, format } of beside) {
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

/**
 * Modules that must be one object in a run, whichever bundle uses them: the errors every command
 * throws and the entry reports (`instanceof`), the terminal the entry opens and a command prompts
 * on (PromptCancelled), the settings of the run, and the entry's choice to bound the heap (which
 * the loader in a command's bundle reads). Each is a file of its own that the others
 * require, never a copy in each bundle.
 */
const ONE_PER_RUN = [
  'src/model/errors.ts',
  'src/cli/io.ts',
  'src/settings/settled.ts',
  'src/support/heap.ts',
];

/**
 * The CLI's file that holds the module at `source`: `src/cli/plan.ts` → `cli-plan.cjs`, and a
 * workspace package's `packages/sandbox/src/demo-catalog.ts` → `sandbox-demo-catalog.cjs`.
 */
function bundleName(source) {
  const relative = path.relative('.', source).split(path.sep);
  const within =
    relative[0] === 'packages' && relative[2] === 'src'
      ? [relative[1], ...relative.slice(3)]
      : path.relative('src', source).split(path.sep);
  return `${within.join('-').replace(/\.[cm]?[jt]s$/, '')}.cjs`;
}

/**
 * The CLI, as CommonJS: Node 20 starts a CommonJS program about 3 ms sooner than an ES module one,
 * and requires a file with no resolution to wait for; `contracts validate` of one file took 80
 * ms this way against 90 ms code-split into ES modules, `--version` 62 against 68 ms (61
 * alternating runs). One bundle for the entry (the arguments and the commands' declarations), one
 * for each module imported when needed (each command's, the settings file's reader, the policy
 * engine, SARIF), required when it is; and the ONE_PER_RUN modules, which the others require.
 * Returns the outputs of every bundle, as a metafile would name them.
 */
async function buildCli() {
  const queue = [['src/cli.ts', 'cli.cjs']];
  const named = new Map();
  const outputs = {};
  const once = new Set(ONE_PER_RUN.map((file) => path.resolve(file)));
  // Marks the resolution this plugin asks esbuild for, which it leaves to esbuild.
  const asking = Symbol('asking');
  const required = {
    name: 'required-bundles',
    setup(bundle) {
      bundle.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === asking) return undefined;
        if (args.kind !== 'dynamic-import' && args.kind !== 'import-statement') return undefined;
        const resolved = await bundle.resolve(args.path, {
          importer: args.importer,
          resolveDir: args.resolveDir,
          kind: args.kind,
          pluginData: asking,
        });
        // What esbuild cannot resolve, it reports where it would have.
        if (resolved.errors.length > 0) return undefined;
        const source = resolved.path;
        if (args.kind !== 'dynamic-import' && !once.has(source)) return undefined;
        const name = bundleName(source);
        if (named.has(name) && named.get(name) !== source)
          throw new Error(`${source} and ${named.get(name)} would both be ${name}`);
        if (!named.has(name)) {
          named.set(name, source);
          queue.push([source, name]);
        }
        return { path: `./${name}`, external: true };
      });
    },
  };
  while (queue.length > 0) {
    const [entry, name] = queue.shift();
    const result = await build({
      entryPoints: [entry],
      outfile: path.join('dist', name),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      // import() of another bundle becomes require(), which Node answers at once; an import()
      // of a CommonJS file goes through the ES module loader, which scans the whole file first.
      supported: { 'dynamic-import': false },
      define: {
        __CONTRACTS_VERSION__: JSON.stringify(pkg.version),
        'import.meta.url': 'importMetaUrl',
      },
      inject: ['scripts/import-meta-url.js'],
      metafile: true,
      logLevel: 'warning',
      plugins: [required, commanderSpawnOnUse],
    });
    Object.assign(outputs, result.metafile.outputs);
  }
  for (const file of ONE_PER_RUN) {
    const holders = Object.keys(outputs).filter((output) => file in outputs[output].inputs);
    if (holders.length !== 1) throw new Error(`${file} is held by ${holders.join(', ')}`);
  }
  return { outputs };
}

const cli = await buildCli();

// The library's entry (package.json's exports), one ES module.
const library = await build({
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  define: { __CONTRACTS_VERSION__: JSON.stringify(pkg.version) },
  banner,
  metafile: true,
  logLevel: 'warning',
});
// Both are in dist/: what they start is built there once.
await buildBeside(
  { outputs: { ...cli.outputs, ...library.metafile.outputs } },
  { sourcemap: true },
  [...BESIDE, ...SANDBOX_BESIDE],
);

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

/**
 * The declarations of the workspace packages the library entry re-exports (the sandbox's), which
 * are bundled, not installed: each is built into dist/types/<folder>, and the declarations that
 * name the package by its name name those files instead.
 */
const BUNDLED_PACKAGES = [{ name: '@contracts-gitops/sandbox', folder: 'sandbox' }];

function pointAtBundledTypes(directory) {
  for (const entry of readdirSync(directory, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.d.ts')) continue;
    const file = path.join(directory, entry);
    const text = readFileSync(file, 'utf8');
    const pointed = text.replace(
      /(from ')(@contracts-gitops\/[\w-]+)(\/[\w-]+)?(')/g,
      (whole, from, name, sub, end) => {
        const bundled = BUNDLED_PACKAGES.find((bundledPackage) => bundledPackage.name === name);
        if (bundled === undefined) return whole;
        const target = path.join(
          'dist/types',
          bundled.folder,
          `${sub === undefined ? 'index' : sub.slice(1)}.js`,
        );
        const relative = path.relative(path.dirname(file), target).split(path.sep).join('/');
        return `${from}${relative.startsWith('.') ? relative : `./${relative}`}${end}`;
      },
    );
    if (pointed !== text) writeFileSync(file, pointed);
  }
}

if (!skipTypes) {
  const tsc = (project) =>
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project], {
      stdio: 'inherit',
    });
  tsc('tsconfig.build.json');
  for (const { folder } of BUNDLED_PACKAGES) tsc(`packages/${folder}/tsconfig.build.json`);
  pointAtBundledTypes('dist/types');
}
