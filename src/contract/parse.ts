// Parses one contract file's bytes into a DesiredContract, keeping source positions so that
// every problem is reported at its file:line:col. Pure: no file system access.
import { withoutLocalFields, type DesiredContract } from '../model/contract.js';
import { dottedPath, notListed, type Problem, type Result } from '../model/problem.js';
import { fastLoad, loadPlain, mayHoldKeysReadApart } from './fast-parse.js';
import {
  firstInvalidUtf8,
  locate,
  nodeStart,
  positionOfByte,
  type ContractFile,
  type Position,
  type Segment,
  rememberDocument,
} from './positions.js';
import { matchesSchema, schemaProblems } from './schema.js';
import { misindentation, syntaxReason } from './syntax-message.js';
import { yamlLibrary } from '../support/yaml-library.js';
import { MAX_ALIAS_COUNT, treeProblems } from './tree-checks.js';
import { fromOdcs, isOdcsDocument } from './from-odcs.js';
import { fastOdcsContractFile, odcsContractFile } from './odcs-file.js';
import {
  duplicateItemProblems,
  hasOddNode,
  hasRepeatedItemKeys,
  NESTING_MESSAGE,
  oddNodeProblems,
} from './value-checks.js';

/** Largest contract file accepted. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** What is said of a file of `size` bytes, over MAX_FILE_BYTES. */
export function tooLargeMessage(size: number): string {
  return `the file is ${size} bytes, over the limit of ${MAX_FILE_BYTES} bytes (1 MiB); a contract file should be a few kilobytes`;
}
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export {
  parsedPositionally,
  positionOf,
  withContract,
  type ContractFile,
  type ContractIdentity,
  type Position,
} from './positions.js';
export { MAX_NESTING } from './value-checks.js';

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * A contract file's text as the loader reads it: its bytes as strict UTF-8, without a byte order
 * mark; undefined when they are not UTF-8.
 */
export function contractText(bytes: Uint8Array): string | undefined {
  let decoded: string;
  try {
    decoded = STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  return withoutBom(decoded);
}

/**
 * The contract of a file's bytes that validated before (a loaded file read again, unchanged), by
 * the path that read them then, without checking them again: js-yaml's value when the fast path
 * took the file, else the positional parser's.
 */
export function contractOfValidated(
  bytes: Uint8Array,
  file: string,
  fast: boolean,
): DesiredContract | undefined {
  if (fast) {
    // Validated bytes are UTF-8: the platform's lenient decoder reads them as the strict one did.
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    const value = loadPlain(withoutBom(text)) as Record<string, unknown>;
    // An ODCS document is read as a contract, as fastParseContract read it.
    if (isOdcsDocument(file, value)) return fromOdcs(value).contract;
    return withoutLocalFields(value as DesiredContract);
  }
  const parsed = parseContract(bytes, file, { fastPath: false });
  return parsed.ok ? parsed.value.contract : undefined;
}

/**
 * The fast path: a plain-enough file that js-yaml loads and that validates needs no positional
 * parse. Undefined means "parse positionally" (it never reports problems itself).
 */
export function fastParseContract(text: string, file: string): ContractFile | undefined {
  const fast = fastLoad(text);
  if (fast === undefined) return undefined;
  // An ODCS document that validates against the standard's schema and names its catalog asset.
  if (isOdcsDocument(file, fast))
    return hasOddNode(fast) || mayHoldKeysReadApart(text)
      ? undefined
      : fastOdcsContractFile(fast, file, text);
  if (!matchesSchema(fast) || hasRepeatedItemKeys(fast) || hasOddNode(fast)) return undefined;
  // The contract as planned: what the file keeps in git alone (its version) is read apart.
  const versioned = 'contractVersion' in (fast as object);
  const contract = withoutLocalFields(fast as DesiredContract);
  return { file, identity: contract, contract, text, ...(versioned ? { versioned } : {}) };
}

/** Parses and validates one contract file. `file` is the path shown in problems. */
export interface ParseOptions {
  /** Try the fast path first (default true); false always parses positionally. */
  fastPath?: boolean;
}

/** Problems listed per file; the rest are counted in one more problem. */
export const MAX_PROBLEMS_PER_FILE = 100;

export function parseContract(
  input: string | Uint8Array,
  file: string,
  options: ParseOptions = {},
): Result<ContractFile> {
  const result = parseAndCheck(input, file, options);
  if (result.ok || result.problems.length <= MAX_PROBLEMS_PER_FILE + 1) return result;
  const problems = result.problems.slice(0, MAX_PROBLEMS_PER_FILE);
  // Said where the first problem not listed is.
  problems.push(
    notListed(
      result.problems.length - MAX_PROBLEMS_PER_FILE,
      result.problems[MAX_PROBLEMS_PER_FILE]!,
    ),
  );
  return { ok: false, problems };
}

function parseAndCheck(
  input: string | Uint8Array,
  file: string,
  options: ParseOptions,
): Result<ContractFile> {
  const at = (line: number, column: number, path: string, message: string): Problem => ({
    file,
    line,
    column,
    path,
    message,
  });
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    if (input.length > MAX_FILE_BYTES) {
      return {
        ok: false,
        problems: [at(1, 1, '', tooLargeMessage(input.length))],
      };
    }
    const decoded = contractText(input);
    const bad = decoded === undefined ? firstInvalidUtf8(input) : -1;
    if (bad >= 0) {
      const pos = positionOfByte(input, bad);
      return {
        ok: false,
        problems: [
          at(
            pos.line,
            pos.column,
            '',
            `the file is not valid UTF-8 (byte 0x${input[bad]!.toString(16).padStart(2, '0')} at offset ${bad}); save it as UTF-8`,
          ),
        ],
      };
    }
    text = decoded ?? '';
  }
  if (text.length > MAX_FILE_BYTES) {
    return {
      ok: false,
      problems: [at(1, 1, '', `the file is over the limit of ${MAX_FILE_BYTES} bytes (1 MiB)`)],
    };
  }
  // Bytes lose their byte order mark as they are decoded.
  if (typeof input === 'string') text = withoutBom(text);
  if (text.includes('\u0000')) {
    const offset = text.indexOf('\u0000');
    const lines = text.slice(0, offset).split('\n');
    return {
      ok: false,
      problems: [
        at(
          lines.length,
          lines[lines.length - 1]!.length + 1,
          '',
          'the file contains a NUL character; contract files are text',
        ),
      ],
    };
  }

  const fast = options.fastPath === false ? undefined : fastParseContract(text, file);
  if (fast !== undefined) return { ok: true, value: fast };

  const { LineCounter, parseAllDocuments } = yamlLibrary();
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, {
    lineCounter,
    // The yaml package checks unique keys in quadratic time; the visit below does it in linear.
    uniqueKeys: false,
    prettyErrors: false,
    strict: true,
    schema: 'core',
    merge: false,
    intAsBigInt: false,
  });
  const pos = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const problems: Problem[] = [];
  const docList = Array.isArray(docs) ? docs : [];
  const first = docList[0];
  if (first === undefined || first.contents === null) {
    const empty = docList.length === 0 || (first !== undefined && first.errors.length === 0);
    if (empty) {
      return {
        ok: false,
        problems: [
          at(
            1,
            1,
            '',
            'the file is empty; a contract needs at least name, fullyQualifiedName and entity',
          ),
        ],
      };
    }
  }
  if (docList.length > 1) {
    const second = docList[1]!;
    const p = pos(second.range[0]);
    problems.push(
      at(
        p.line,
        p.column,
        '',
        `the file holds ${docList.length} YAML documents; put one contract in each file`,
      ),
    );
  }
  for (const doc of docList.slice(0, 1)) {
    for (const error of [...doc.errors, ...doc.warnings]) {
      // Unresolved tags are reported by the tag check below, with a better sentence.
      if (error.code === 'TAG_RESOLVE_FAILED') continue;
      const p = pos(error.pos[0]);
      // A tab in the indentation throws every line after it out of place: the syntax errors that
      // follow come from it, and are not listed.
      if (error.code === 'TAB_AS_INDENT') {
        problems.push(
          at(
            p.line,
            p.column,
            '',
            'a tab in the indentation: YAML indents with spaces only, so replace it with spaces (the syntax errors after it follow from it, and are not listed)',
          ),
        );
        break;
      }
      // A line indented out of step: one sentence at it, not the package's two or five.
      const misindented = misindentation(error, text, p.line);
      if (misindented !== undefined) {
        const column = /^ */.exec(text.split(/\r?\n/)[misindented.line - 1]!)![0].length + 1;
        problems.push(at(misindented.line, column, '', misindented.message));
        break;
      }
      const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '');
      const message =
        error.code === 'DUPLICATE_KEY'
          ? 'duplicate key: each key may appear once in a mapping'
          : /call stack/i.test(reason)
            ? NESTING_MESSAGE
            : `YAML ${error.name === 'YAMLWarning' ? 'warning' : 'syntax error'}: ${syntaxReason(error)}`;
      problems.push(at(p.line, p.column, '', message));
    }
  }
  if (problems.length > 0 || first === undefined) return { ok: false, problems };

  // Checks on the syntax tree before anything is turned into JavaScript objects.
  const tree = treeProblems(first, text, pos, at);
  // One by one: a hostile file may hold a hundred thousand, too many for a spread's arguments.
  for (const problem of tree.problems) problems.push(problem);
  const aliasAt = tree.aliasAt;
  if (problems.length > 0) return { ok: false, problems };

  let value: unknown;
  try {
    value = first.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = /alias/i.test(reason)
      ? 'the aliases in this file expand to far too much data (a YAML alias bomb); write the values out'
      : error instanceof RangeError
        ? NESTING_MESSAGE
        : 'the file could not be read as data';
    return { ok: false, problems: [at(aliasAt.line, aliasAt.column, '', message)] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const p = pos(nodeStart(first.contents));
    return {
      ok: false,
      problems: [
        at(
          p.line,
          p.column,
          '',
          'a contract file must be a mapping of keys to values (name: ..., fullyQualifiedName: ..., entity: ...)',
        ),
      ],
    };
  }

  const locateProblem = (
    segments: readonly Segment[],
    pointAtKey: boolean,
    message: string,
  ): Problem => {
    const { found, depth } = locate(first, segments);
    const exact = depth === segments.length;
    const node =
      exact && pointAtKey && found.keyNode !== null
        ? found.keyNode
        : exact
          ? found.node
          : (found.keyNode ?? found.node);
    const p = pos(nodeStart(node));
    return at(p.line, p.column, dottedPath(segments), message);
  };

  // An ODCS document: its own schema, then read as a contract.
  if (isOdcsDocument(file, value)) {
    const odcs = odcsContractFile(value as Record<string, unknown>, file, text, locateProblem);
    if (!odcs.ok) {
      const all = [...odcs.problems, ...oddNodeProblems(value, locateProblem)];
      return { ok: false, problems: all.sort((a, b) => a.line - b.line || a.column - b.column) };
    }
    rememberDocument(odcs.value, first, lineCounter);
    return odcs;
  }
  problems.push(...schemaProblems(value, locateProblem));
  problems.push(...oddNodeProblems(value, locateProblem));
  problems.push(
    ...duplicateItemProblems(value as Record<string, unknown>, first, pos, locateProblem),
  );
  if (problems.length > 0) {
    problems.sort((a, b) => a.line - b.line || a.column - b.column);
    return { ok: false, problems };
  }

  const versioned = 'contractVersion' in value;
  const contract = withoutLocalFields(value as DesiredContract);
  const contractFile: ContractFile = {
    file,
    identity: contract,
    contract,
    text,
    ...(versioned ? { versioned } : {}),
  };
  rememberDocument(contractFile, first, lineCounter);
  return { ok: true, value: contractFile };
}
