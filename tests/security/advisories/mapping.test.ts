// One database: who may read or change what (the endpoint declarations and the queries' owner conditions), the same SQL on either kind; no connections side by side, notifications across processes or durability in question.
/**
 * The table of advisories (tests/helpers/advisories.ts) and the tests agree: each advisory is listed
 * once, each one marked "here" has exactly one named test in the advisory files of this folder, and
 * each one covered elsewhere names a file that exists.
 *
 * Whether the named tests passed is each advisory file's own result; every file records which of its
 * advisories passed, and the last one of a run writes the 'advisories' figure
 * (tests/helpers/figure-parts.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADVISORIES, ADVISORY_FILES } from '../../helpers/advisories.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const HERE = import.meta.dirname;

/** The advisory numbers each test file of this folder defines: `advisory(<n>, …)`. */
function definedByFile(): Map<string, number[]> {
  const found = new Map<string, number[]>();
  for (const name of fs.readdirSync(HERE).filter((f) => f.endsWith('.test.ts') && f !== 'mapping.test.ts')) {
    const source = fs.readFileSync(path.join(HERE, name), 'utf8');
    found.set(
      name.replace(/\.test\.ts$/, ''),
      [...source.matchAll(/\badvisory\(\s*(\d+)\s*,/g)].map((m) => Number(m[1])),
    );
  }
  return found;
}

describe('the mapping (figure: advisories)', () => {
  it('lists each of the 29 advisories once, and every one marked "here" has its named test, all passed', () => {
    expect(ADVISORIES.map((a) => a.n)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    expect(new Set(ADVISORIES.map((a) => a.id)).size).toBe(29);

    // Every advisory file is a part of the figure, and every part is a file here.
    const files = definedByFile();
    expect([...files.keys()].sort()).toEqual([...ADVISORY_FILES].sort());

    const defined = [...files.values()].flat().sort((a, b) => a - b);
    const markedHere = ADVISORIES.filter((a) => a.coverage.status === 'here').map((a) => a.n);
    expect(defined, 'each advisory marked "here" has exactly one named test').toEqual(markedHere);
    for (const a of ADVISORIES) {
      if (a.coverage.status === 'elsewhere')
        expect(fs.existsSync(path.join(ROOT, a.coverage.file)), a.coverage.file).toBe(true);
    }
  });
});
