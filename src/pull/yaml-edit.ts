// A YAML file's text edited toward a new value, changing only the text of what differs: every
// node whose value stays is left as it is written — its comments, quoting, blank lines, folding
// and key order — and a changed scalar keeps its style (a quoted string stays quoted, a block
// stays a block). Edits are spliced into the text at the nodes' ranges, as the `yaml` package's
// parser gives them; the result is parsed again and must hold exactly the new value, or the
// edit falls back to the package's document API (comments kept, layout re-written), which must
// hold it too. Pure: text in, text out.
import type { Document, Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { isPlainObject, jsonEqual } from '../model/json-value.js';
import { yamlLibrary } from '../support/yaml-library.js';

/** The key an array item is matched by, at `path` (the array's place); undefined: by value. */
export type ItemKey = (path: readonly (string | number)[], item: unknown) => string | undefined;

/** The edited text, and whether it had to be re-written whole (its layout changed). */
export interface EditedText {
  text: string;
  rewritten: boolean;
}

interface Splice {
  start: number;
  end: number;
  text: string;
}

/** How the file lays out nested blocks: its indent, and whether sequences are indented. */
interface Layout {
  indent: number;
  indentSeq: boolean;
}

type Path = readonly (string | number)[];

/**
 * New values are written as YAML 1.1 would read them back: a string that reads as a date, a
 * boolean (`yes`) or a number under either version is quoted.
 */
const RENDERING = { schema: 'yaml-1.1' } as const;

class Editor {
  readonly splices: Splice[] = [];

  constructor(
    private readonly source: string,
    private readonly layout: Layout,
    private readonly keyOf: ItemKey,
  ) {}

  /** Where the line holding `at` starts. */
  private lineStart(at: number): number {
    return this.source.lastIndexOf('\n', at - 1) + 1;
  }

  /** Just past the end of the line holding `at` (its newline included). */
  private lineEnd(at: number): number {
    const newline = this.source.indexOf('\n', at);
    return newline === -1 ? this.source.length : newline + 1;
  }

  /** Just past the last line of `node` (its trailing comment and newline included). */
  private extentEnd(node: Node): number {
    const end = node.range![2];
    return end > 0 && this.source[end - 1] === '\n' ? end : this.lineEnd(end);
  }

  private column(at: number): number {
    return at - this.lineStart(at);
  }

  /** Whether only blanks stand before `at` on its line (a pair that starts its own line). */
  private startsLine(at: number): boolean {
    return this.source.slice(this.lineStart(at), at).trim() === '';
  }

  /** `text` (lines rendered at column 0) moved to `column`: each line after the first, or all. */
  private indented(text: string, column: number, first: boolean): string {
    const pad = ' '.repeat(column);
    return text
      .split('\n')
      .map((line, i) => (line === '' || (i === 0 && !first) ? line : pad + line))
      .join('\n');
  }

  /** `value` as a block at column 0. */
  private render(value: unknown): string {
    return yamlLibrary().stringify(value, { ...RENDERING, lineWidth: 0, ...this.layout });
  }

  /**
   * `value` as the text after `key: ` (a pair) or `- ` (an item), ending in a newline, in `like`'s
   * style when both are scalars (a quoted string stays quoted) or collections (flow stays flow).
   */
  private renderValue(value: unknown, like: Node | null, context: 'pair' | 'item'): string {
    const yaml = yamlLibrary();
    const doc = new yaml.Document(context === 'pair' ? { k: value } : [value], RENDERING);
    const top = doc.contents;
    const node = yaml.isMap(top)
      ? (top.items[0] as Pair<Scalar, Node>).value
      : yaml.isSeq(top)
        ? (top.items[0] as Node)
        : null;
    if (like !== null && node !== null && yaml.isScalar(like) && yaml.isScalar(node)) {
      if (typeof value === 'string' && typeof like.value === 'string' && like.type !== undefined)
        node.type = like.type;
    } else if (
      like !== null &&
      node !== null &&
      yaml.isCollection(like) &&
      yaml.isCollection(node)
    ) {
      node.flow = like.flow === true;
    }
    const text = doc.toString({ lineWidth: 0, ...this.layout });
    return text.slice(context === 'pair' ? 'k:'.length : '-'.length).replace(/^ /, '');
  }

  private splice(start: number, end: number, text: string): void {
    this.splices.push({ start, end, text });
  }

  /** Edits `node` (holding `before`) to hold `after`; `owner` is where it is written. */
  edit(node: Node | null, before: unknown, after: unknown, path: Path, owner: Owner): void {
    if (jsonEqual(before, after)) return;
    const yaml = yamlLibrary();
    if (node !== null && !(yaml.isCollection(node) && node.flow === true)) {
      const emptied = isPlainObject(after) && Object.keys(after).length === 0;
      if (yaml.isMap(node) && isPlainObject(before) && isPlainObject(after) && !emptied) {
        this.editMap(node, before, after, path);
        return;
      }
      if (yaml.isSeq(node) && Array.isArray(before) && Array.isArray(after)) {
        if (this.editSeq(node, before, after, path)) return;
      }
    }
    this.replace(node, after, owner);
  }

  /** Writes `after` in place of `node`'s value. */
  private replace(node: Node | null, after: unknown, owner: Owner): void {
    const rendered = this.renderValue(after, node, owner.lead === '-' ? 'item' : 'pair');
    if (node !== null && yamlLibrary().isScalar(node)) {
      const [start, end] = node.range!;
      const wasBlock = this.source[end - 1] === '\n';
      const line = rendered.replace(/\n$/, '');
      // A scalar on one line for one: only its text changes, its comment stays.
      if (!wasBlock && !line.includes('\n')) {
        this.splice(start, end, line);
        return;
      }
      // A block scalar for one: its lines, at the entry's indentation.
      if (wasBlock && line.includes('\n') && !rendered.startsWith('\n')) {
        this.splice(start, end, this.indented(rendered, owner.column, false));
        return;
      }
    }
    // Anything else: the whole entry (`key: value` or `- value`) is written again.
    const start = this.lineStart(owner.start);
    const end = node === null ? this.lineEnd(owner.start) : this.extentEnd(node);
    const head = this.source.slice(start, owner.start) + owner.lead;
    const body = this.indented(rendered, owner.column, false);
    this.splice(start, end, `${head}${rendered.startsWith('\n') ? '' : ' '}${body}`);
  }

  private editMap(
    node: YAMLMap,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
    path: Path,
  ): void {
    const yaml = yamlLibrary();
    const pairs = node.items as Pair<Node, Node | null>[];
    const seen = new Set<string>();
    let last: Pair<Node, Node | null> | undefined;
    for (const pair of pairs) {
      const key = yaml.isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === undefined) continue;
      seen.add(key);
      last = pair;
      const keyStart = pair.key.range![0];
      const lead = this.source.slice(keyStart, this.keyEnd(pair));
      const owner = { start: keyStart, lead, column: this.column(keyStart) };
      if (!Object.hasOwn(after, key)) {
        if (!this.startsLine(keyStart)) throw new ReWrite('a first key after a dash is removed');
        const end = pair.value === null ? this.lineEnd(keyStart) : this.extentEnd(pair.value);
        this.splice(this.lineStart(keyStart), end, '');
        continue;
      }
      this.edit(pair.value, before[key], after[key], [...path, key], owner);
    }
    const added = Object.keys(after).filter((key) => !seen.has(key));
    if (added.length === 0) return;
    if (last === undefined) throw new ReWrite('an empty map gains keys');
    const column = this.column(last.key.range![0]);
    const at = last.value === null ? this.lineEnd(last.key.range![0]) : this.extentEnd(last.value);
    const text = added.map((key) => this.render({ [key]: after[key] })).join('');
    this.splice(at, at, this.indented(text, column, true));
  }

  private keyEnd(pair: Pair<Node, Node | null>): number {
    const colon = this.source.indexOf(':', pair.key.range![1]);
    return colon === -1 ? pair.key.range![1] : colon + 1;
  }

  /** Edits a block sequence item by item; false when its items moved (written again whole). */
  private editSeq(node: YAMLSeq, before: unknown[], after: unknown[], path: Path): boolean {
    const items = node.items as Node[];
    // An emptied list is written `[]`: a key with no items left would read as null.
    if (items.length !== before.length || items.length === 0 || after.length === 0) return false;
    const keyOf = (item: unknown): string => this.keyOf(path, item) ?? `=${JSON.stringify(item)}`;
    const beforeKeys = before.map(keyOf);
    const afterKeys = after.map(keyOf);
    if (new Set(beforeKeys).size !== beforeKeys.length) return false;
    if (new Set(afterKeys).size !== afterKeys.length) return false;
    const kept = afterKeys.filter((key) => beforeKeys.includes(key));
    const keptBefore = beforeKeys.filter((key) => afterKeys.includes(key));
    if (!jsonEqual(kept, keptBefore)) return false;
    const dash = (item: Node): number => this.source.lastIndexOf('-', item.range![0] - 1);
    for (const item of items) if (!this.startsLine(dash(item))) return false;
    const column = this.column(dash(items[0]!));
    // Removed items go; kept ones are edited in place.
    items.forEach((item, i) => {
      const key = beforeKeys[i]!;
      const j = afterKeys.indexOf(key);
      if (j === -1) {
        this.splice(this.lineStart(dash(item)), this.extentEnd(item), '');
        return;
      }
      const start = dash(item);
      this.edit(item, before[i], after[j], [...path, j], { start, lead: '-', column });
    });
    // New items go after the item before them in the new order (or before the first).
    let at = this.lineStart(dash(items[0]!));
    let pending = '';
    const flush = (): void => {
      if (pending !== '') this.splice(at, at, this.indented(pending, column, true));
      pending = '';
    };
    after.forEach((item, j) => {
      const i = beforeKeys.indexOf(afterKeys[j]!);
      if (i === -1) {
        pending += this.render([item]);
        return;
      }
      flush();
      at = this.extentEnd(items[i]!);
    });
    flush();
    return true;
  }
}

/** Where a value is written: the start of its key (or dash), the text up to its value, its column. */
interface Owner {
  start: number;
  lead: string;
  column: number;
}

/** An edit the splicer does not make; the document API makes it instead. */
class ReWrite extends Error {}

function layoutOf(doc: Document, source: string): Layout {
  const yaml = yamlLibrary();
  let indent = 2;
  let indentSeq = true;
  let foundIndent = false;
  let foundSeq = false;
  yaml.visit(doc, {
    Pair(_, pair) {
      const key = pair.key as Node | null;
      const value = pair.value as Node | null;
      const keyRange = key?.range;
      if (keyRange == null || value?.range == null) return undefined;
      if (!yaml.isCollection(value) || value.flow === true || value.items.length === 0)
        return undefined;
      const keyColumn = keyRange[0] - (source.lastIndexOf('\n', keyRange[0] - 1) + 1);
      const first: unknown = value.items[0];
      const firstStart = yaml.isPair(first)
        ? (first.key as Node).range![0]
        : (first as Node).range![0];
      const lineStart = source.lastIndexOf('\n', firstStart - 1) + 1;
      if (yaml.isSeq(value) && !foundSeq) {
        const dash = source.lastIndexOf('-', firstStart - 1);
        indentSeq = dash - lineStart > keyColumn;
        foundSeq = true;
      }
      if (yaml.isMap(value) && !foundIndent && firstStart - lineStart > keyColumn) {
        indent = firstStart - lineStart - keyColumn;
        foundIndent = true;
      }
      return undefined;
    },
  });
  return { indent, indentSeq };
}

function parsedMap(text: string): Document {
  const yaml = yamlLibrary();
  const doc = yaml.parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0 || !yaml.isMap(doc.contents))
    throw new Error('the file is not one YAML map it can be edited as');
  return doc;
}

/** The JSON value of a YAML file's text (one map), as the editor reads it. */
export function yamlValue(text: string): Record<string, unknown> {
  return parsedMap(text).toJS({ maxAliasCount: 0 }) as Record<string, unknown>;
}

function holds(text: string, value: unknown): boolean {
  const doc = yamlLibrary().parseDocument(text, { uniqueKeys: true });
  return doc.errors.length === 0 && jsonEqual(doc.toJS({ maxAliasCount: 0 }), value);
}

/** `text` (one YAML document whose top is a map) edited to hold `target`, a JSON value. */
export function editYaml(
  text: string,
  target: Record<string, unknown>,
  keyOf: ItemKey,
): EditedText {
  const doc = parsedMap(text);
  const before = doc.toJS({ maxAliasCount: 0 }) as unknown;
  const layout = layoutOf(doc, text);
  try {
    const editor = new Editor(text, layout, keyOf);
    editor.edit(doc.contents, before, target, [], { start: 0, lead: '', column: 0 });
    const splices = editor.splices.sort((a, b) => b.start - a.start || b.end - a.end);
    let edited = text;
    let floor = Infinity;
    for (const { start, end, text: piece } of splices) {
      if (end > floor) throw new ReWrite('two edits overlap');
      edited = edited.slice(0, start) + piece + edited.slice(end);
      floor = start;
    }
    if (holds(edited, target)) return { text: edited, rewritten: false };
  } catch (error) {
    if (!(error instanceof ReWrite)) throw error;
  }
  return { text: rewrittenWhole(doc, target, layout), rewritten: true };
}

/** The document API's edit: each top-level value that differs set anew, comments kept. */
function rewrittenWhole(doc: Document, target: Record<string, unknown>, layout: Layout): string {
  const map = doc.contents as YAMLMap;
  const before = doc.toJS({ maxAliasCount: 0 }) as Record<string, unknown>;
  for (const key of Object.keys(before)) if (!Object.hasOwn(target, key)) map.delete(key);
  for (const [key, value] of Object.entries(target))
    if (!jsonEqual(before[key], value)) map.set(key, doc.createNode(value));
  const text = doc.toString({ lineWidth: 0, ...layout });
  if (!holds(text, target)) throw new Error('the edited file would not hold the new values');
  return text;
}
