// Builds the CLI and the library entry with esbuild (code-split so each command loads only what
// it needs), the GitHub Action bundle, and the type declarations with tsc.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const skipTypes = process.argv.includes('--no-types');

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
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
  banner: {
    // CommonJS dependencies bundled into ESM still call require() for Node's built-ins.
    js: "import { createRequire as __contractsCreateRequire } from 'node:module'; const require = __contractsCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

// The GitHub Action: one self-contained file, committed (action/index.js). CI checks that the
// committed file is exactly what the sources build.
await build({
  entryPoints: ['src/action/main.ts'],
  outfile: 'action/index.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  legalComments: 'eof',
  minify: true,
  define: { __CONTRACTS_VERSION__: JSON.stringify(pkg.version) },
  banner: {
    js: "import { createRequire as __contractsCreateRequire } from 'node:module'; const require = __contractsCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

if (!skipTypes) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
