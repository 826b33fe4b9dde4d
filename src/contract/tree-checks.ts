// The checks of a contract file's syntax tree, made before anything is turned into JavaScript
// objects: no tags, no duplicate or forbidden keys, keys that are plain strings, and no more
// aliases than a contract needs (a bomb needs thousands).
import type { Document, Node as YamlNode } from 'yaml';
import { yamlLibrary } from '../support/yaml-library.js';
import { nodeStart, type Position } from './positions.js';
import type { Problem } from '../model/problem.js';
import { FORBIDDEN_KEYS } from './value-checks.js';

/** Aliases one document may resolve; a handful is plenty for a contract, a bomb needs thousands. */
export const MAX_ALIAS_COUNT = 50;

/** The tree's problems, and where its first alias is (said if its aliases expand to too much). */
export function treeProblems(
  first: Document.Parsed,
  text: string,
  pos: (offset: number) => Position,
  at: (line: number, column: number, path: string, message: string) => Problem,
): { problems: Problem[]; aliasAt: Position } {
  const { isAlias, isMap, isPair, isScalar, isSeq, visit } = yamlLibrary();
  const problems: Problem[] = [];
  let aliasCount = 0;
  let firstAlias: YamlNode | null = null;
  visit(first, {
    Node(_key, node) {
      if (isAlias(node)) {
        aliasCount += 1;
        firstAlias ??= node;
      }
      if ((isScalar(node) || isMap(node) || isSeq(node)) && node.tag !== undefined) {
        const shown = node.tag.replace(/^tag:yaml\.org,2002:/, '!!');
        // The node's range starts after its tag; point at the tag as written, when it is there.
        const start = nodeStart(node);
        const tagAt = text.lastIndexOf(shown, start);
        const p = pos(tagAt >= 0 && !text.slice(tagAt, start).includes('\n') ? tagAt : start);
        problems.push(
          at(
            p.line,
            p.column,
            '',
            `the tag ${shown} is not allowed; write plain YAML values without tags`,
          ),
        );
      }
      return undefined;
    },
    Map(_key, map) {
      /** Each key's first line in this mapping. */
      const seen = new Map<string, number>();
      for (const item of map.items) {
        if (!isScalar(item.key)) continue;
        const name = String(item.key.value);
        const p = pos(nodeStart(item.key));
        const first = seen.get(name);
        if (first === undefined) {
          seen.set(name, p.line);
          continue;
        }
        problems.push(
          at(
            p.line,
            p.column,
            '',
            `duplicate key: this key is first on line ${first}, and each key may appear once in a mapping; keep one of them`,
          ),
        );
      }
      return undefined;
    },
    Pair(_key, pair) {
      if (isPair(pair) && isScalar(pair.key) && FORBIDDEN_KEYS.has(String(pair.key.value))) {
        const p = pos(nodeStart(pair.key));
        problems.push(
          at(
            p.line,
            p.column,
            '',
            `the key ${String(pair.key.value)} is not allowed in a contract file`,
          ),
        );
      } else if (isPair(pair) && pair.key !== null && !isScalar(pair.key)) {
        const p = pos(nodeStart(pair.key as YamlNode));
        problems.push(
          at(p.line, p.column, '', 'keys must be plain strings, not mappings, lists or aliases'),
        );
      }
      return undefined;
    },
  });
  const aliasAt = pos(nodeStart(firstAlias));
  if (aliasCount > MAX_ALIAS_COUNT) {
    problems.push(
      at(
        aliasAt.line,
        aliasAt.column,
        '',
        `the file uses ${aliasCount} aliases, over the limit of ${MAX_ALIAS_COUNT}; write the values out`,
      ),
    );
  }
  return { problems, aliasAt };
}
