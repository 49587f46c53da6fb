import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingNodeFlags, SERVER_NODE_FLAGS } from './node-flags.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe("the server's Node flags", () => {
  it('names the flags a process was started without, on its command line or in NODE_OPTIONS', () => {
    expect(missingNodeFlags([], '')).toEqual([...SERVER_NODE_FLAGS]);
    expect(missingNodeFlags(['--inspect', ...SERVER_NODE_FLAGS], '')).toEqual([]);
    expect(missingNodeFlags([], `--max-old-space-size=512  ${SERVER_NODE_FLAGS.join(' ')}`)).toEqual([]);
    // A flag is a whole word: a longer one that starts the same is not it.
    expect(missingNodeFlags([`${SERVER_NODE_FLAGS[0]}-later`], '')).toEqual([...SERVER_NODE_FLAGS]);
  });

  it('are given by npm start and npm run dev, and the test workers run with them', () => {
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    for (const name of ['start', 'dev']) {
      const words = scripts[name]!.split(/\s+/);
      expect(missingNodeFlags(words, ''), `npm run ${name}: ${scripts[name]}`).toEqual([]);
    }
    expect(missingNodeFlags()).toEqual([]);
  });
});
