// `contracts coverage [PATH...] [--database FQN] [--json|--markdown]`: which tables have a contract
// (their own, or inherited from a data product) and which of those the repository manages.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadContracts } from '../read/load.js';
import { collectCoverage, type CoverageReport, type CoverageRow } from '../coverage/coverage.js';
import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import { type Io } from './io.js';
import { colorsFor, type Colors } from '../views/colors.js';
import { ConfigError } from '../model/errors.js';
import { codeSpan } from '../views/render-markdown.js';
import { printable } from '../support/printable.js';
import { progressLine } from './progress.js';
import { connect, type ConnectionFlags } from '../operations/connection.js';
import { renderProblems } from '../views/problems.js';
import { repositoryOf } from '../git/repository.js';

export interface CoverageCliOptions extends ConnectionFlags {
  /** Contract files or directories; empty means contracts/ when it exists. */
  paths: string[];
  database?: string;
  pageSize?: number;
  format: 'human' | 'json' | 'markdown';
  color: boolean;
}

/** `row` with every text from the catalog (and every file name) made printable. */
function shownRow(row: CoverageRow): CoverageRow {
  const shown = (text: string | null): string | null => (text === null ? null : printable(text));
  return {
    ...row,
    table: printable(row.table),
    contract: shown(row.contract),
    dataProduct: shown(row.dataProduct),
    file: shown(row.file),
    toCreate: shown(row.toCreate),
    managedBy: shown(row.managedBy),
  };
}

/** Who manages an own contract, by its marker. */
function managedText(row: CoverageRow): string {
  if (row.managed === 'here') return 'managed from this repository';
  if (row.managed === 'elsewhere') return `managed from ${row.managedBy ?? 'another repository'}`;
  return 'managed by no repository';
}

function describe(row: CoverageRow): string {
  if (row.status === 'own') return `own: ${row.contract ?? ''} · ${managedText(row)}`;
  if (row.status === 'inherited')
    return `inherited from ${row.dataProduct === null ? '' : `data product ${row.dataProduct}, `}${row.contract ?? ''}`;
  return 'none';
}

function totalsLine(report: CoverageReport): string {
  const t = report.totals;
  return `${t.tables} table${t.tables === 1 ? '' : 's'}: ${t.own} with their own contract (${t.ownInGit} in git; managed from this repository ${t.managedHere}, from another ${t.managedElsewhere}, by none ${t.managedByNone}), ${t.inherited} inherited from a data product, ${t.none} without${t.toCreate > 0 ? `; ${t.toCreate} to be created from git` : ''}. Coverage: ${t.percentWithContract}% have a contract in force; ${t.percentInGit}% are managed in git.`;
}

export function renderCoverageHuman(report: CoverageReport, catalogUrl: string, c: Colors): string {
  const rows = report.rows.map(shownRow);
  const width = Math.max(5, ...rows.map((row) => row.table.length));
  const lines = [
    `Coverage of ${report.totals.tables} tables in ${catalogUrl}:`,
    '',
    `  ${c.bold('TABLE'.padEnd(width))}  ${c.bold('CONTRACT')}  ${c.dim('(file in git)')}`,
  ];
  for (const row of rows) {
    const text = describe(row);
    const colored =
      row.status === 'none'
        ? c.red(text)
        : row.status === 'inherited'
          ? c.yellow(text)
          : c.green(text);
    const file =
      row.file ?? (row.toCreate === null ? null : `${row.toCreate}: not in the catalog yet`);
    lines.push(
      `  ${row.table.padEnd(width)}  ${colored}${file === null ? '' : c.dim(`  (${file})`)}`,
    );
  }
  lines.push('', c.bold(totalsLine(report)));
  for (const note of report.notes) lines.push(c.dim(`Note: ${note}`));
  return `${lines.join('\n')}\n`;
}

export function renderCoverageMarkdown(report: CoverageReport, catalogUrl: string): string {
  const lines = [
    '### Data contract coverage',
    '',
    `Catalog: \`${catalogUrl}\``,
    '',
    '| Table | Contract | File in git |',
    '|---|---|---|',
  ];
  // A table cell ends at a `|`, even inside a code span.
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  for (const row of report.rows.map(shownRow))
    lines.push(
      `| ${cell(codeSpan(row.table))} | ${cell(describe(row))} | ${cell(row.file !== null ? codeSpan(row.file) : row.toCreate !== null ? `${codeSpan(row.toCreate)} (to create)` : '')} |`,
    );
  lines.push('', `**${totalsLine(report)}**`, '');
  for (const note of report.notes) lines.push(`ℹ️ Note: ${note}`, '');
  return lines.join('\n');
}

export async function runCoverage(options: CoverageCliOptions, io: Io): Promise<number> {
  // Without PATH, a repository with no contracts/ directory simply has no files to match.
  const paths =
    options.paths.length === 0
      ? existsSync(path.join(io.cwd, 'contracts'))
        ? ['contracts']
        : []
      : options.paths;
  const loaded =
    paths.length === 0
      ? { files: [], problems: [], fileCount: 0 }
      : await loadContracts(paths, io.cwd);
  if (loaded.problems.length > 0) {
    io.stderr.write(renderProblems(loaded.problems, 'human'));
    io.stderr.write(
      `Error: ${loaded.problems.length} problem${loaded.problems.length === 1 ? '' : 's'} in contract files; fix them to match tables with files.\n`,
    );
    return EXIT_ERROR;
  }
  const { client, catalogUrl, connections } = connect(options, io.env);
  try {
    await client.preflight();
    const progress = progressLine(io.stderr, 'Checking tables', {
      minTotal: 50,
      concurrency: connections,
    });
    const repository = await repositoryOf(io.cwd, io.env);
    const report = await collectCoverage(client, loaded.files, {
      ...(options.database === undefined ? {} : { database: options.database }),
      ...(repository === undefined ? {} : { repository }),
      ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
      progress,
    }).finally(() => progress.clear());
    // A database that lists no table is a name the catalog does not know (or one left empty):
    // said, never a coverage of 0% of nothing.
    if (options.database !== undefined && report.rows.length === 0) {
      throw new ConfigError(
        `the catalog lists no table in database ${options.database}: check its fully qualified name (service.database, case-sensitive); nothing was measured.`,
      );
    }
    if (options.format === 'json')
      io.stdout.write(`${JSON.stringify({ catalogUrl, ...report }, null, 2)}\n`);
    else if (options.format === 'markdown')
      io.stdout.write(renderCoverageMarkdown(report, catalogUrl));
    else
      io.stdout.write(
        renderCoverageHuman(report, catalogUrl, colorsFor(io.stdout, io.env, options.color)),
      );
    return EXIT_OK;
  } finally {
    await client.close();
  }
}
