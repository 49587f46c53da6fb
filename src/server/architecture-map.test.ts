import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is the one map of the code (docs/decisions/128-support-and-desk.md): its tree
 * names every module, every top-level file and folder of src/server and src/web, every folder of
 * src, src/contracts and tests, and its Modules table every module. This test reads the tree on
 * disk and the map, and names what the map lacks and what it names that no longer exists.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const MAP = 'docs/architecture.md';
const map = fs.readFileSync(path.join(ROOT, MAP), 'utf8');

/** Where a line's description starts in the tree block: anything that starts this far in is a description's next line. */
const DESCRIPTION_COLUMN = 24;

/** Tests live beside the code they test and are not entries of the map. */
const isTest = (name: string) => /\.test\.tsx?$/.test(name);

/** The entries of a folder on disk: `name/` for a folder, `name` for a file; dot files and tests left out. */
function entriesOf(folder: string, what: 'all' | 'folders' = 'all'): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.') && !isTest(entry.name))
    .filter((entry) => what === 'all' || entry.isDirectory())
    .map((entry) => `${folder}/${entry.name}${entry.isDirectory() ? '/' : ''}`);
}

/**
 * The paths the map's tree names (the fenced block after "## The tree"), each from the root: a line
 * whose name starts before the description column is an entry, its folder given by the lines
 * above it with less indentation; `a, b` names two entries; `<domain>` stands for any name.
 */
function namedInTree(): { literal: Set<string>; patterns: RegExp[] } {
  const block = /## The tree\n\n```\n([\s\S]*?)\n```/.exec(map)?.[1];
  if (!block) throw new Error(`${MAP} has no "## The tree" block`);
  const literal = new Set<string>();
  const patterns: RegExp[] = [];
  const parents: string[] = [];
  for (const line of block.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (line.trim() === '' || indent >= DESCRIPTION_COLUMN) continue;
    const depth = indent / 2;
    const column = line.trimStart().split(/\s{2,}/)[0]!;
    const prefix = parents.slice(0, depth).join('');
    let last = '';
    for (const name of column.split(/,\s*/)) {
      const full = prefix + name;
      // `modules/<domain>/` names the folder `modules/` too; `api/<domain>.ts`, the folder `api/`.
      const folder = full.slice(0, full.search(/[<*]/)).replace(/[^/]*$/, '');
      if (/[<*]/.test(full) && folder !== prefix) literal.add(folder);
      if (full.includes('<')) {
        const source = full
          .split(/<[^>]+>/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+');
        patterns.push(new RegExp(`^${source}$`));
      } else if (full.includes('*')) {
        patterns.push(new RegExp(`^${full.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`));
      } else {
        literal.add(full);
      }
      last = name;
    }
    // What the lines below it are inside: the folder itself, or the folder before its placeholder.
    parents.length = depth;
    parents.push(last.endsWith('/') ? last.replace(/<[^>]+>\/$/, '') : '');
  }
  return { literal, patterns };
}

/** The modules the map's Modules table lists (its first column, in backticks). */
function modulesInTable(): string[] {
  const section = /\n## Modules\n([\s\S]*?)\n## /.exec(map)?.[1] ?? '';
  return [...section.matchAll(/^\| `([a-z-]+)`/gm)].map((match) => match[1]!);
}

const shouldBeNamed = [
  ...entriesOf('src', 'folders'),
  ...entriesOf('src/server'),
  ...entriesOf('src/server/modules', 'folders'),
  ...entriesOf('src/web'),
  ...entriesOf('src/contracts'),
  ...entriesOf('tests', 'folders'),
];
/** Every file and folder (`name/`) below `folder`. */
function walk(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? [`${folder}/${entry.name}/`, ...walk(`${folder}/${entry.name}`)]
        : [`${folder}/${entry.name}`],
    );
}

const modules = entriesOf('src/server/modules', 'folders').map((entry) => path.basename(entry));

describe(`${MAP}, the one map`, () => {
  const { literal, patterns } = namedInTree();
  // A module is named by its own line (`accounts/`), not by `modules/<domain>/`.
  const isModule = (entry: string) => /^src\/server\/modules\/[^/]+\/$/.test(entry);
  const named = (entry: string) =>
    literal.has(entry) || (!isModule(entry) && patterns.some((pattern) => pattern.test(entry)));

  it('names every module and every top-level file and folder of the source tree', () => {
    const missing = shouldBeNamed.filter((entry) => !named(entry));
    expect(missing, `not on the map (add them to the tree in ${MAP})`).toEqual([]);
  });

  it('names nothing that no longer exists', () => {
    const gone = [...literal].filter((entry) => !fs.existsSync(path.join(ROOT, entry)));
    expect(gone, `named in the tree of ${MAP} but not in the repository`).toEqual([]);
    const everything = walk('src');
    const unmatched = patterns.filter((pattern) => !everything.some((entry) => pattern.test(entry)));
    expect(unmatched.map(String), `patterns in the tree of ${MAP} that match nothing`).toEqual([]);
  });

  it('lists every module, and only those, in its Modules table', () => {
    const listed = modulesInTable();
    expect(
      modules.filter((name) => !listed.includes(name)),
      `modules missing from the table in ${MAP}`,
    ).toEqual([]);
    expect(
      listed.filter((name) => !modules.includes(name)),
      `modules in the table of ${MAP} with no folder`,
    ).toEqual([]);
  });
});
