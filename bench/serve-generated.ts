// The sandbox serving generate.ts's N contracts (its first argument) from a seed it builds in this
// process, as `contracts sandbox serve --seed` would serve the same seed from a file: a seed of
// 100,000 contracts is about 860 MB of JSON, more than one string can hold. Its second argument
// is `--faults` as `sandbox serve` takes it (`latency=20`); SANDBOX_SECRET signs the tokens. It
// prints `listening on URL`, then `started in MS ms` (from its process's start), and serves until
// SIGTERM or SIGINT.
import { checkSeed, parseFaultSpec, startSandbox } from '@contracts-gitops/sandbox';
import { generateSeed } from './generate.js';

const n = Number(process.argv[2]);
const faults = process.argv[3];
if (!Number.isInteger(n) || n <= 0) throw new Error('serve-generated takes N, then --faults');
const sandbox = await startSandbox({
  profile: 'spec',
  host: '127.0.0.1',
  port: 0,
  secret: process.env.SANDBOX_SECRET!,
  seed: checkSeed(generateSeed(n)),
  ...(faults === undefined || faults === '' ? {} : { faults: parseFaultSpec(faults) }),
});
process.stdout.write(
  `listening on ${sandbox.url}\nstarted in ${performance.now().toFixed(0)} ms\n`,
);
const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
