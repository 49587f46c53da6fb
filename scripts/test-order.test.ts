import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { LONGEST_FILES } from '../tests/support/longest-first-sequencer.ts';

const root = path.resolve(import.meta.dirname, '..');

it('every file the test order starts first exists (a renamed file would quietly go back to the end)', () => {
  const missing = LONGEST_FILES.filter((file) => !fs.existsSync(path.join(root, file)));
  expect(missing).toEqual([]);
  expect(new Set(LONGEST_FILES).size).toBe(LONGEST_FILES.length);
});
