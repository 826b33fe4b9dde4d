// The plan as GitHub-flavoured markdown, for job summaries and pull request comments.
import { changesOf } from '../model/operation.js';
import { printableLines } from '../support/printable.js';
import { printablePlan } from './format-value.js';
import {
  deletedFilesText,
  type DeletedContractFile,
  type DeletedSaying,
} from '../read/deleted-files.js';
import { closingLine, diffLineLines } from './render-human.js';
import { placedTexts, placeText } from '../plan/findings.js';
import type { Plan, PlannedChange } from '../plan/types.js';
import type { Mentions } from '../settings/mentions.js';
import { impactLines, impactNote, mentionedHandles } from './render-impact.js';
import { codeSpan, fencedJson, htmlText, markdownText, tableCell } from './markdown-text.js';

const ACTION_LABEL: Record<PlannedChange['action'], string> = {
  create: '+ create',
  update: '~ update',
  delete: '- delete',
  noop: '= no change',
  missing: '? missing',
  error: '✗ error',
};

export { codeSpan } from './markdown-text.js';

function fence(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text}\n${ticks}`;
}

/**
 * The change's consumers with the catalog's words in them (types, why they are unknown) escaped
 * as markdown; names stay as they are, for impactLines writes them as code and maps owners'.
 */
function escapedImpact(change: PlannedChange): PlannedChange {
  const impact = change.impact;
  if (impact === undefined) return change;
  return {
    ...change,
    impact: {
      ...impact,
      asset: { ...impact.asset, type: markdownText(impact.asset.type) },
      ...(impact.unknown === undefined ? {} : { unknown: markdownText(impact.unknown) }),
      consumers: impact.consumers.map((consumer) => ({
        ...consumer,
        type: markdownText(consumer.type),
        owners:
          consumer.owners?.map((owner) => ({ ...owner, type: markdownText(owner.type) })) ?? null,
      })),
    },
  };
}

export function renderChangeDetails(
  change: PlannedChange,
  plan: Pick<Plan, 'impact'> = {},
  mentions?: Mentions,
): string {
  const parts: string[] = [];
  const [count, noun] =
    change.action === 'create'
      ? [change.diff.length, 'field']
      : [changesOf(change.patch).length, 'operation'];
  const size = change.action === 'delete' ? '' : ` (${count} ${noun}${count === 1 ? '' : 's'})`;
  const title = `${ACTION_LABEL[change.action]} <code>${htmlText(change.fullyQualifiedName)}</code>${size}${change.breaking.length > 0 ? ' ⚠️ breaking' : ''}`;
  parts.push(`<details><summary>${title}</summary>`, '');
  parts.push(
    `File: ${codeSpan(change.file)} · live version ${String(change.liveVersion ?? '–')}`,
    '',
  );
  // Each finding after its place, as a code span (`file:line:col`).
  const placed = placedTexts(change, (finding) => codeSpan(placeText(finding)), markdownText);
  if (placed.error !== null)
    parts.push(`**${change.action === 'missing' ? 'Missing' : 'Error'}:** ${placed.error}`, '');
  for (const breaking of placed.breaking) parts.push(`- ⚠️ **breaking:** ${breaking}`);
  const consumers = impactLines(escapedImpact(change), plan, codeSpan, mentions);
  if (consumers.length > 0)
    parts.push(`- 👥 ${consumers[0]!}`, ...consumers.slice(1).map((line) => `  - ${line.trim()}`));
  for (const warning of placed.warnings) parts.push(`- ⚠️ warning: ${warning}`);
  for (const note of change.notes) parts.push(`- note: ${markdownText(note)}`);
  if (change.breaking.length + change.warnings.length + change.notes.length > 0) parts.push('');
  if (change.diff.length > 0)
    parts.push(
      fence(
        // GitHub colours a diff's `+`, `-` and `!` lines; a change (`~`) or a move is shown as `!`.
        change.diff
          .flatMap((line) => {
            const { head, text } = diffLineLines(line);
            // A text's lines: `-` and `+` at the start, as GitHub colours them.
            return [head, ...(text ?? []).map((row) => `${row.mark}     ${row.text}`)];
          })
          .map((row) => row.replace(/^[~↕] /, '! '))
          .join('\n'),
        'diff',
      ),
      '',
    );
  if (change.create != null)
    parts.push(
      `Request that apply will send: \`POST /v1/dataContracts\` (on ${markdownText(change.create.assetType)} ${codeSpan(change.create.assetFullyQualifiedName)})`,
      '',
      fence(fencedJson(printableLines(JSON.stringify(change.create.body, null, 2))), 'json'),
      '',
    );
  if (change.action === 'delete')
    parts.push(
      `Its file is gone and it was managed from this repository: \`apply --prune\` sends ${codeSpan(`DELETE /v1/dataContracts/${change.id ?? ''}`)} (a soft delete the catalog can restore; \`--hard-delete\` for one it cannot), only if the contract is still at version ${String(change.liveVersion)}.`,
      '',
    );
  if (change.patch.length > 0)
    parts.push(
      `RFC 6902 patch that apply will send (its \`test\` operations are guards: the catalog refuses the whole patch if the contract moved since this plan):`,
      '',
      fence(fencedJson(printableLines(JSON.stringify(change.patch, null, 2))), 'json'),
      '',
    );
  parts.push('</details>');
  return parts.join('\n');
}

/**
 * Title, table of contracts and one collapsible block per change; under the closing line, the
 * contract files deleted `deleted.where`, which no shortening of the rest leaves out.
 */
export function renderPlanMarkdown(
  given: Plan,
  options: {
    title?: string;
    includeNoop?: boolean;
    /** GitHub handles of catalog owners, to mention those a breaking change reaches. */
    mentions?: Mentions;
    deleted?: { files: readonly DeletedContractFile[]; where: string } & DeletedSaying;
  } = {},
): string {
  const plan = printablePlan(given);
  const lines: string[] = [];
  lines.push(`### ${options.title ?? 'Data contracts plan'}`, '');
  lines.push(
    `**${closingLine(plan)}** Catalog: ${codeSpan(plan.catalogUrl)}${plan.gitCommit === null ? '' : ` · commit ${codeSpan(plan.gitCommit.slice(0, 12))}`}`,
    '',
  );
  const deleted =
    options.deleted === undefined
      ? ''
      : deletedFilesText(
          options.deleted.files,
          options.deleted.where,
          codeSpan,
          options.deleted,
          markdownText,
        );
  if (deleted !== '') lines.push(`⚠️ ${deleted}`, '');
  const unlooked = impactNote(plan);
  if (unlooked !== '') lines.push(`ℹ️ ${markdownText(unlooked)}`, '');
  for (const note of plan.notes ?? []) lines.push(`ℹ️ ${markdownText(`Note: ${note}.`)}`, '');
  const handles = mentionedHandles(plan, options.mentions);
  if (handles.length > 0)
    lines.push(`👥 The breaking changes reach assets owned by ${handles.join(', ')}.`, '');
  const listed = plan.changes.filter(
    (change) =>
      options.includeNoop === true ||
      change.action !== 'noop' ||
      change.warnings.length + change.notes.length > 0,
  );
  if (listed.length === 0) {
    lines.push('No changes: the catalog matches the contract files.', '');
    return lines.join('\n');
  }
  lines.push(
    '| Contract | File | Action | Breaking | Warnings | Operations |',
    '|---|---|---|---|---|---|',
  );
  for (const change of listed) {
    lines.push(
      `| ${tableCell(codeSpan(change.fullyQualifiedName))} | ${tableCell(codeSpan(change.file))} | ${ACTION_LABEL[change.action]} | ${change.breaking.length > 0 ? `⚠️ ${change.breaking.length}` : ''} | ${change.warnings.length > 0 ? String(change.warnings.length) : ''} | ${changesOf(change.patch).length} |`,
    );
  }
  lines.push('');
  for (const change of listed) lines.push(renderChangeDetails(change, plan, options.mentions), '');
  return lines.join('\n');
}
