import type { Config } from '@react-router/dev/config';

/** The floor: an empty React Router app in framework mode, built like ours (bench/lib/floor.ts). */
export default {
  appDirectory: 'app',
  buildDirectory: process.env.BENCH_FLOOR_OUT ?? 'build',
  ssr: true,
} satisfies Config;
