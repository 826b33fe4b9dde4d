// Every link between the repository's pages leads somewhere: a relative link in the README,
// docs/ or bench/ names a file that exists, and its #anchor a heading of that page, as GitHub
// makes anchors. The pages of docs/ ship in the package, so they link only to what ships with
// them (package.json's `files`, and the README).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** The page's text outside fenced code blocks. */
const outsideFences = (text: string): string => text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');

/** The page's text outside fenced code blocks and inline code. */
const prose = (text: string): string => outsideFences(text).replace(/`[^`\n]*`/g, '');

/** The anchors GitHub gives the page's headings. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of outsideFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/`/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The relative links of `file` (a path from the root): `target#anchor` as written. */
function linksOf(file: string): string[] {
  const text = prose(readFileSync(path.join(root, file), 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

/** What is wrong with one link of `file`, or undefined. */
function brokenLink(file: string, link: string): string | undefined {
  const [target, anchor] = link.split('#') as [string, string | undefined];
  const resolved =
    target === '' ? path.join(root, file) : path.resolve(root, path.dirname(file), target);
  if (!existsSync(resolved)) return `${file}: ${link}: no such file`;
  if (anchor === undefined || !resolved.endsWith('.md')) return undefined;
  if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
    return `${file}: ${link}: no such heading`;
  return undefined;
}

const pages = [
  'README.md',
  ...['docs', 'bench'].flatMap((folder) =>
    readdirSync(path.join(root, folder))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${folder}/${name}`),
  ),
];

describe("the repository's pages", () => {
  it('link only to files and headings that exist', () => {
    expect(pages).toContain('docs/performance.md');
    expect(pages).toContain('bench/RUNS.md');
    const links = pages.flatMap((file) => linksOf(file).map((link) => [file, link] as const));
    expect(links.length).toBeGreaterThan(100);
    expect(links.map(([file, link]) => brokenLink(file, link)).filter(Boolean)).toEqual([]);
  });

  it('in docs/, link only to what the package ships', () => {
    const { files } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      files: string[];
    };
    const shipped = [...files, 'README.md', 'package.json'];
    const leaving = pages
      .filter((file) => file.startsWith('docs/'))
      .flatMap((file) =>
        linksOf(file).map((link) => {
          const target = link.split('#')[0]!;
          const from = path.relative(root, path.resolve(root, 'docs', target || '.'));
          const top = from.split(path.sep)[0]!;
          return shipped.includes(top) || target === '' ? undefined : `${file}: ${link}`;
        }),
      )
      .filter(Boolean);
    expect(leaving).toEqual([]);
  });

  it('makes anchors as GitHub does, and finds a broken link', () => {
    expect([
      ...anchorsOf(
        '# Performance\n## Runs AD to AG: reads while the files load\n## `contracts plan [path]`\n## Runs\n## Runs\n',
      ),
    ]).toEqual([
      'performance',
      'runs-ad-to-ag-reads-while-the-files-load',
      'contracts-plan-path',
      'runs',
      'runs-1',
    ]);
    expect(brokenLink('docs/performance.md', '#running-with-a-memory-limit')).toBeUndefined();
    expect(brokenLink('docs/performance.md', '#no-such-heading')).toBe(
      'docs/performance.md: #no-such-heading: no such heading',
    );
    expect(brokenLink('README.md', 'docs/nothing.md')).toBe(
      'README.md: docs/nothing.md: no such file',
    );
  });
});
