// The commands of the embedded catalog: `contracts sandbox serve` and `contracts sandbox token`.
import type { Command } from 'commander';
import type { ServeOptions, TokenOptions } from '../sandbox.js';
import type { CommandContext } from './context.js';

export function addSandboxCommands(program: Command, { io, setExit }: CommandContext): void {
  const sandbox = program
    .command('sandbox')
    .description('the embedded catalog, for the demo, tests and trying things out');
  sandbox
    .command('serve')
    .description(
      'serve the catalog interface over HTTP (the built-in demo catalog unless --seed is given)',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', (v) => Number(v), 8585)
    .option('--seed <file>', 'JSON seed file (users, assets, dataProducts, dataContracts)')
    .option(
      '--secret <secret>',
      'HS256 secret for tokens (default: SANDBOX_SECRET or a built-in local secret)',
    )
    .option('--data <file>', 'keep the state in this file across restarts')
    .option(
      '--faults <spec>',
      'inject seeded faults, e.g. seed=7,latency=0-20,503=0.2,get.429=0.1,retry-after=1,reset=0.05,patch.commit-drop=0.1',
    )
    .option(
      '--profile <profile>',
      'spec (the catalog specification) or openmetadata (the shapes and behaviour of an OpenMetadata release, 1.10.0 to 1.13.7 and 2.0.0 to 2.0.9)',
      'spec',
    )
    .option(
      '--openmetadata-version <version>',
      'with --profile openmetadata: the release to play, 1.10.0 to 1.13.7 or 2.0.0 to 2.0.9, with its behaviour (default 2.0.9; see docs/openmetadata-releases.md)',
    )
    .option(
      '--openmetadata-variant <name=on|off>',
      'with --profile openmetadata: play a behaviour the release leaves unconfirmed one way, e.g. ifMatchDropsContractChanges=on (repeatable; see docs/openmetadata-releases.md)',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .action(async (options: ServeOptions) => {
      const { runServe } = await import('../sandbox.js');
      setExit(await runServe(options, io));
    });
  sandbox
    .command('token')
    .description('print a JWT for a sandbox user')
    .requiredOption('--user <name>', 'user name from the seed')
    .option(
      '--secret <secret>',
      'HS256 secret the sandbox uses (default: SANDBOX_SECRET or the built-in local secret)',
    )
    .option('--expires-in <duration>', 'lifetime such as 30m, 1h or 7d', '1h')
    .option('--seed <file>', 'the seed file the sandbox serves: the user must be one of its users')
    .action(async (options: TokenOptions) => {
      const { runToken } = await import('../sandbox.js');
      setExit(await runToken(options, io));
    });
}
