import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Everything a comment or a document cites is in this repository: no pointer to documents a clone
 * does not have, no tracker numbers in code, every `docs/….md` path exists, every `#anchor` after it
 * is a heading of that file, and every `§N` after docs/product.md or docs/design.md is one of its
 * numbered sections.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((file) => /\.(ts|tsx|js|md|css|json)$/.test(file) && !file.startsWith('bench/results/'))
  .filter((file) => file !== 'package-lock.json' && file !== 'scripts/references.test.ts')
  .filter((file) => fs.existsSync(path.join(ROOT, file)));
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');

function headingsOf(file: string) {
  const headings = read(file)
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, ''));
  // Explicit anchors (<a id="up-03"></a> in a table row) count too.
  const explicit = [...read(file).matchAll(/<a id="([\w-]+)"><\/a>/g)].map((m) => m[1]!);
  return {
    anchors: new Set([...headings.map(anchorOf), ...explicit]),
    // "## 4b. Command line" → 4b; "### 2.6 Partner registration" → 2.6
    sections: new Set(headings.map((h) => /^(\d+[a-z]?(?:\.\d+)?)\.?\s/.exec(h)?.[1]).filter(Boolean)),
  };
}

describe('references in the repository', () => {
  it('cite nothing outside it: no ../shared/, no DESIGN § or spec §, no (issue N) in code', () => {
    const found: string[] = [];
    for (const file of tracked) {
      const text = read(file);
      for (const [pattern, what] of [
        [/\.\.\/shared\/(?!services)/g, '../shared/'],
        [/\bDESIGN §|\bspec §/g, 'an outside spec or design section'],
      ] as const) {
        for (const match of text.matchAll(pattern)) found.push(`${file}: ${what} (${match[0]})`);
      }
      if (!file.endsWith('.md') && /\(issue \d+\)/.test(text)) found.push(`${file}: (issue N)`);
    }
    expect(found).toEqual([]);
  });

  it('name documents that exist, with anchors and sections they have', () => {
    const broken: string[] = [];
    const cache = new Map<string, ReturnType<typeof headingsOf>>();
    const docHeadings = (doc: string) => {
      if (!cache.has(doc)) cache.set(doc, headingsOf(doc));
      return cache.get(doc)!;
    };
    for (const file of tracked) {
      const text = read(file);
      for (const match of text.matchAll(/\bdocs\/([\w./-]+?\.md)(#[\w-]+)?(?: §(\d+[a-z]?(?:\.\d+)?))?/g)) {
        const doc = `docs/${match[1]}`;
        if (!fs.existsSync(path.join(ROOT, doc))) {
          broken.push(`${file}: ${doc} does not exist`);
          continue;
        }
        const anchor = match[2]?.slice(1);
        if (anchor && !docHeadings(doc).anchors.has(anchor))
          broken.push(`${file}: ${doc}#${anchor} has no such heading`);
        const section = match[3];
        if (section && !docHeadings(doc).sections.has(section))
          broken.push(`${file}: ${doc} §${section} has no such section`);
      }
      // A decision cited by number alone (docs/decisions/041) must exist too.
      for (const match of text.matchAll(/\bdocs\/decisions\/(\d{3})\b(?!-)/g)) {
        const exists = fs.readdirSync(path.join(ROOT, 'docs/decisions')).some((name) => name.startsWith(match[1]!));
        if (!exists) broken.push(`${file}: docs/decisions/${match[1]} does not exist`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('use only check ids that docs/security-checks.md explains', () => {
    const explained = new Set(read('docs/security-checks.md').match(/\b[A-Z]{2,5}-\d{2}\b/g));
    const prefixes = new Set([...explained].map((id) => id.split('-')[0]));
    const unexplained = new Set<string>();
    for (const file of tracked.filter((f) => /^(src|tests|scripts|bench)\//.test(f))) {
      for (const id of read(file).match(/\b[A-Z]{2,5}-\d{2}\b/g) ?? []) {
        if (prefixes.has(id.split('-')[0]!) && !explained.has(id)) unexplained.add(`${file}: ${id}`);
      }
    }
    expect([...unexplained]).toEqual([]);
  });
});
