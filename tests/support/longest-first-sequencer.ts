import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The integration files that take longest (measured in CI: about 25 to 135 s each, the rest under
 * 20 s), longest first. Vitest orders files it has no timings for by size, and on a clean clone it
 * has none: the fuzz files are short files that drive long runs, so they started last and the run
 * ended waiting on them with the other workers idle (decision 100). Started first, the short files
 * fill the workers around them.
 */
export const LONGEST_FILES = [
  'tests/reliability/crash.test.ts',
  'tests/security/fuzz-public.test.ts',
  'tests/security/fuzz-admin.test.ts',
  'tests/reliability/notify-crash.test.ts',
  'tests/integration/accounts/cli.test.ts',
  'tests/security/fuzz-support.test.ts',
  'tests/reliability/startup.test.ts',
  'tests/integration/operations/backup.test.ts',
  'tests/integration/second-factor/cli.test.ts',
  'tests/security/headers.test.ts',
  'tests/security/authz/matrix.test.ts',
  'tests/security/uploads/corpus.test.ts',
];

const rankOf = (spec: TestSpecification) => {
  const moduleId = spec.moduleId.replaceAll('\\', '/');
  const rank = LONGEST_FILES.findIndex((file) => moduleId.endsWith(`/${file}`));
  return rank === -1 ? LONGEST_FILES.length : rank;
};

/**
 * Vitest's order (project by project, then by past duration or size), with the files above moved
 * to the front of their project. Projects stay together: a worker that shares its loaded modules
 * between files is only reused for a file of the same project.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projectOrder = new Map<string, number>();
    for (const spec of sorted)
      if (!projectOrder.has(spec.project.name)) projectOrder.set(spec.project.name, projectOrder.size);
    return sorted
      .map((spec, index) => ({ spec, index, project: projectOrder.get(spec.project.name)!, rank: rankOf(spec) }))
      .sort((a, b) => a.project - b.project || a.rank - b.rank || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
