// The deletions of a plan are agreed to apart from its other changes: at a terminal, listed and
// asked for on their own; with --auto-approve (or no terminal), only with --prune given to apply
// itself, so that a plan saved with deletions in it cannot delete by surprise.
import { ConfigError } from '../model/errors.js';
import { deletions, type Plan } from '../plan/types.js';
import { type Io } from './io.js';
import { type Colors } from '../views/colors.js';

/** What becomes of the deletions: sent, or declined (kept, and said). */
export type DeletionConsent = 'apply' | 'decline';

/** Why deletions are refused without --prune, as the error says it. */
function refusal(count: number, names: string): string {
  return `this plan deletes ${count} contract${count === 1 ? '' : 's'} (${names}), and apply deletes only with --prune: run apply again with --prune to delete ${count === 1 ? 'it' : 'them'}, or make a plan without --prune. Nothing was sent`;
}

/**
 * Whether the plan's deletions are sent. Throws (nothing sent) when they are not agreed to and no
 * one can be asked; a cancelled prompt (Ctrl-C, Ctrl-D) throws PromptCancelled.
 */
export async function deletionConsent(
  plan: Plan,
  options: { prune: boolean; autoApprove: boolean; hardDelete: boolean },
  io: Io,
  c: Colors,
): Promise<DeletionConsent> {
  const gone = deletions(plan);
  if (gone.length === 0) return 'apply';
  const names = gone.map((change) => change.fullyQualifiedName).join(', ');
  if (!options.autoApprove && io.stdinIsTTY && io.prompt !== undefined) {
    const how = options.hardDelete
      ? 'for good (--hard-delete: the catalog keeps nothing to restore)'
      : 'softly (the catalog can restore them)';
    io.stdout.write(
      `\n${c.red(c.bold(`The plan deletes ${gone.length} contract${gone.length === 1 ? '' : 's'}`))} ${how}, because ${gone.length === 1 ? 'its file is' : 'their files are'} gone:\n${gone
        .map(
          (change) => `  ${c.red('-')} ${change.fullyQualifiedName}  ${c.dim(`(${change.file})`)}`,
        )
        .join('\n')}\n`,
    );
    const answer = await io.prompt(
      `\nDo you want to delete ${gone.length === 1 ? 'this contract' : `these ${gone.length} contracts`}?\n  Only 'yes' will be accepted: `,
    );
    if (answer.trim() === 'yes') return 'apply';
    io.stderr.write(
      `Deletions declined: ${names} ${gone.length === 1 ? 'stays' : 'stay'} in the catalog.\n`,
    );
    return 'decline';
  }
  if (options.prune) return 'apply';
  throw new ConfigError(refusal(gone.length, names));
}
