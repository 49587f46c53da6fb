import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Everything a comment, a test name or a document cites is in this repository: no pointer to
 * documents a clone does not have (an outside spec, design or catalogue section, a tracker issue,
 * ../shared/), every repository path named exists, every `docs/….md` path exists, every `#anchor`
 * after it is a heading (or an `<a id>`) of that file, every `§N` is a numbered section of
 * docs/product.md or docs/design.md, every relative Markdown link resolves, and every check id is
 * explained in docs/security-checks.md. Scans src, tests, scripts, bench, docs and the root files.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const SELF = 'scripts/references.test.ts';
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((file) => /\.(ts|tsx|js|md|css|json)$/.test(file) && !file.startsWith('bench/results/'))
  .filter((file) => file !== 'package-lock.json' && file !== SELF)
  .filter((file) => fs.existsSync(path.join(ROOT, file)));
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file: string) => fs.existsSync(path.join(ROOT, file));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const SECTION = /§(\d+[a-z]?(?:\.\d+)?)/g;
const cache = new Map<string, { anchors: Set<string>; sections: Set<string> }>();
function headingsOf(file: string) {
  if (!cache.has(file)) {
    const text = read(file);
    const headings = text
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => line.replace(/^#+ /, ''));
    cache.set(file, {
      anchors: new Set([
        ...headings.map(anchorOf),
        ...[...text.matchAll(/<a (?:id|name)="([^"]+)"/g)].map((m) => m[1]!),
      ]),
      // "## 4b. Command line" → 4b; "### 2.6 Partner registration" → 2.6
      sections: new Set(headings.map((h) => /^(\d+[a-z]?(?:\.\d+)?)\.?\s/.exec(h)?.[1]).filter((s) => s !== undefined)),
    });
  }
  return cache.get(file)!;
}

describe('references in the repository', () => {
  it('cite nothing outside it: no ../shared/, no outside spec, design or catalogue section, no tracker issue', () => {
    const found: string[] = [];
    for (const file of tracked) {
      const text = read(file);
      for (const [pattern, what] of [
        [/\.\.\/shared\/(?!services)/g, '../shared/'],
        [/\bDESIGN §|\bspec §|\bcatalogue §/gi, 'an outside spec, design or catalogue section'],
        [/\bissue #?\d+/gi, 'a tracker issue'],
      ] as const) {
        for (const match of text.matchAll(pattern)) found.push(`${file}: ${what} (${match[0]})`);
      }
    }
    expect(found).toEqual([]);
  });

  it('cite a § only as a numbered section of docs/product.md or docs/design.md that exists', () => {
    const broken: string[] = [];
    for (const file of tracked) {
      const own = file === 'docs/product.md' || file === 'docs/design.md' ? file : undefined;
      read(file)
        .split('\n')
        .forEach((line, index) => {
          for (const match of line.matchAll(SECTION)) {
            // The section belongs to the document named last before it on the line (or to the
            // document itself, in product.md and design.md).
            const before = [...line.slice(0, match.index).matchAll(/\b(?:docs\/)?(product|design)\.md\b/g)].at(-1);
            // …or, in Markdown, to the document the § links to: [§5](design.md#5-security-baseline).
            const linked = /^[^\]]*\]\((?:\.\.\/)*(?:docs\/)?(product|design)\.md\b/.exec(line.slice(match.index));
            const named = before ?? linked;
            const doc = named ? `docs/${named[1]}.md` : own;
            const where = `${file}:${index + 1}`;
            if (!doc) broken.push(`${where}: ${match[0]} names no document (cite docs/product.md or docs/design.md)`);
            else if (!headingsOf(doc).sections.has(match[1]!)) broken.push(`${where}: ${doc} has no ${match[0]}`);
          }
        });
    }
    expect(broken).toEqual([]);
  });

  it('name documents, anchors and decisions that exist', () => {
    const broken: string[] = [];
    for (const file of tracked) {
      const text = read(file);
      for (const match of text.matchAll(/\bdocs\/([\w./-]+?\.md)(#[\w-]+)?/g)) {
        const doc = `docs/${match[1]}`;
        if (!exists(doc)) broken.push(`${file}: ${doc} does not exist`);
        else if (match[2] && !headingsOf(doc).anchors.has(match[2].slice(1)))
          broken.push(`${file}: ${doc}${match[2]} has no such heading`);
      }
      // A decision cited by number alone (docs/decisions/041) must exist too.
      for (const match of text.matchAll(/\bdocs\/decisions\/(\d{3})\b(?!-)/g)) {
        if (!fs.readdirSync(path.join(ROOT, 'docs/decisions')).some((name) => name.startsWith(match[1]!)))
          broken.push(`${file}: docs/decisions/${match[1]} does not exist`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('link Markdown to files and anchors that exist', () => {
    const broken: string[] = [];
    for (const file of tracked.filter((f) => f.endsWith('.md'))) {
      for (const match of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z][\w+.-]*:/i.test(target)) continue; // https:, mailto:
        const [relative, anchor] = target.split('#');
        const linked = relative ? path.posix.normalize(path.posix.join(path.posix.dirname(file), relative)) : file;
        if (!exists(linked)) broken.push(`${file}: ${target} does not exist`);
        else if (anchor && linked.endsWith('.md') && !headingsOf(linked).anchors.has(anchor))
          broken.push(`${file}: ${target} has no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('name repository paths that exist', () => {
    const missing: string[] = [];
    for (const file of tracked) {
      // A path starts at a top-level folder and is not part of a longer path (a package's own src/…).
      const text = read(file);
      for (const match of text.matchAll(/(?<![\w./@-])((?:src|tests|scripts|bench|docs|public)\/[\w./-]*\w)/g)) {
        const named = match[1]!;
        if (/^docs\/decisions\/\d{3}$/.test(named)) continue; // a decision by number: checked above
        if (/^[\w./-]*[{*]/.test(text.slice(match.index + named.length))) continue; // a pattern: fuzz-*.test.ts
        if (!exists(named)) missing.push(`${file}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('use only check ids that docs/security-checks.md explains', () => {
    const explained = new Set(read('docs/security-checks.md').match(/\b[A-Z]{2,5}-\d{2}\b/g));
    // Tokens shaped like an id that are not one.
    const notIds = new Set(['UTF-16']);
    const unexplained = new Set<string>();
    for (const file of tracked.filter((f) => f !== 'docs/security-checks.md')) {
      for (const id of read(file).match(/\b[A-Z]{2,5}-\d{2}\b/g) ?? []) {
        if (!explained.has(id) && !notIds.has(id)) unexplained.add(`${file}: ${id}`);
      }
    }
    expect([...unexplained]).toEqual([]);
  });
});
