// `npm run demo`: starts the built-in sandbox catalog in this process on a free port, mints a
// token, and runs validate → plan → apply → plan with the real CLI against contracts/, showing
// each step as a user would see it. Exits 0 only when the last plan shows no changes.
// `npm run demo -- --profile openmetadata`: the same against the sandbox as an OpenMetadata
// 1.10+ server, with the example files in examples/openmetadata/ (the profile is found by `auto`).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintToken, startSandbox } from '../dist/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli.cjs');
const secret = randomBytes(24).toString('hex');
const bold = (text) =>
  process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[1m${text}\u001b[22m` : text;

const profileAt = process.argv.indexOf('--profile');
const profile = profileAt === -1 ? 'spec' : process.argv[profileAt + 1];
if (profile !== 'spec' && profile !== 'openmetadata') {
  console.error(`--profile must be spec or openmetadata, got '${String(profile)}'`);
  process.exit(1);
}
const workspace = profile === 'spec' ? root : path.join(root, 'examples', 'openmetadata');
const sandbox = await startSandbox({ port: 0, secret, profile });
const env = {
  ...process.env,
  CATALOG_URL: sandbox.url,
  CATALOG_TOKEN: await mintToken('alice', secret, '1h'),
};
console.log(
  bold(
    `Embedded catalog (sandbox, ${profile} profile) listening on ${sandbox.url}; CATALOG_URL and CATALOG_TOKEN are set for user alice.`,
  ),
);

/** Runs the CLI the way a user would (asynchronously, so this process keeps serving the catalog). */
function contracts(args) {
  console.log(`\n${bold(`$ contracts ${args.join(' ')}`)}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: workspace,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const steps = [
  { args: ['validate'], expect: 0 },
  { args: ['plan'], expect: 0 },
  { args: ['apply', '--auto-approve'], expect: 0 },
  { args: ['plan', '--detailed-exitcode'], expect: 0 },
];
let failed = false;
for (const step of steps) {
  const code = await contracts(step.args);
  if (code !== step.expect) {
    console.error(
      `\ncontracts ${step.args.join(' ')} exited ${code}, expected ${step.expect}; the demo stops here.`,
    );
    failed = true;
    break;
  }
}
await sandbox.close();
if (!failed)
  console.log(
    `\n${bold(`Demo complete: the catalog now matches ${path.relative(root, path.join(workspace, 'contracts'))} (the last plan found no changes).`)}`,
  );
process.exit(failed ? 1 : 0);
