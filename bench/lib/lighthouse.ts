/**
 * Lighthouse (the npm package, 13.x) on Debian's Chromium through chrome-launcher: headless, no
 * downloads. Runs are strictly sequential (one page, one preset at a time) so they do not compete
 * for the CPU, and each figure is the median of the runs.
 */
import { createRequire } from 'node:module';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { median } from './process-stats.ts';
import { CHROMIUM_ARGS, FULL_CHROMIUM_PATH } from '../../tests/helpers/chromium.ts';

export const CHROMIUM_PATH = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? FULL_CHROMIUM_PATH;
export const LIGHTHOUSE_VERSION: string = (
  createRequire(import.meta.url)('lighthouse/package.json') as { version: string }
).version;

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
} as const;

export type Preset = 'mobile' | 'desktop';

export interface LighthouseRun {
  scores: Record<(typeof CATEGORIES)[number], number>;
  metrics: Record<keyof typeof METRICS, number>;
  /** Audits below a full score in the categories other than Performance, e.g. `color-contrast`. */
  failing: string[];
  /** Requests to any other origin. */
  thirdPartyRequests: number;
  benchmarkIndex: number | undefined;
}

export interface LighthouseFigure {
  path: string;
  preset: Preset;
  runs: number;
  scores: LighthouseRun['scores'];
  metrics: LighthouseRun['metrics'];
  failing: string[];
  thirdPartyRequests: number;
  benchmarkIndex: number | undefined;
}

const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS, '--disable-dev-shm-usage'];

async function runOnce(
  url: string,
  port: number,
  preset: Preset,
  extraHeaders?: Record<string, string>,
): Promise<LighthouseRun> {
  const config = preset === 'desktop' ? desktopConfig : undefined;
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      ...(extraHeaders ? { extraHeaders } : {}),
    },
    config,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError)
    throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
  ) as LighthouseRun['scores'];
  const metrics = Object.fromEntries(
    Object.entries(METRICS).map(([k, id]) => [k, lhr.audits[id]?.numericValue ?? Number.NaN]),
  ) as LighthouseRun['metrics'];
  const failing: string[] = [];
  for (const c of CATEGORIES) {
    if (c === 'performance') continue;
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) failing.push(`${c}:${ref.id}`);
    }
  }
  const origin = new URL(url).origin;
  const items =
    (lhr.audits['network-requests']?.details as { items?: Array<{ url: string }> } | undefined)?.items ?? [];
  const thirdPartyRequests = items.filter((i) => !i.url.startsWith(origin) && !i.url.startsWith('data:')).length;
  return { scores, metrics, failing, thirdPartyRequests, benchmarkIndex: lhr.environment?.benchmarkIndex };
}

/**
 * Runs Lighthouse `runs` times for each page and preset, one at a time, and returns the median of
 * each score and metric. `onProgress` is told after every run. `extraHeaders` go with every request
 * (a session cookie, for a signed-in page).
 */
export async function runLighthouse(
  base: string,
  paths: string[],
  options: {
    runs?: number;
    presets?: Preset[];
    onProgress?: (line: string) => void;
    extraHeaders?: Record<string, string>;
  } = {},
): Promise<LighthouseFigure[]> {
  const runs = options.runs ?? 3;
  const presets = options.presets ?? ['mobile', 'desktop'];
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  });
  try {
    const figures: LighthouseFigure[] = [];
    for (const preset of presets) {
      for (const path of paths) {
        const all: LighthouseRun[] = [];
        for (let i = 0; i < runs; i++) {
          // A trace Lighthouse could not read (NO_NAVSTART and the like) is run again, twice at most.
          let run: LighthouseRun | undefined;
          for (let attempt = 1; !run; attempt++) {
            try {
              run = await runOnce(base + path, chrome.port, preset, options.extraHeaders);
            } catch (error) {
              if (attempt >= 3) throw error;
              options.onProgress?.(`${preset} ${path}: ${(error as Error).message}; trying again`);
            }
          }
          all.push(run);
          options.onProgress?.(
            `${preset} ${path} run ${i + 1}/${runs}: performance ${run.scores.performance}, LCP ${Math.round(run.metrics.lcp)} ms, TBT ${Math.round(run.metrics.tbt)} ms`,
          );
        }
        const med = <T extends Record<string, number>>(pick: (r: LighthouseRun) => T): T =>
          Object.fromEntries(Object.keys(pick(all[0]!)).map((k) => [k, median(all.map((r) => pick(r)[k]!))])) as T;
        figures.push({
          path,
          preset,
          runs,
          scores: med((r) => r.scores),
          metrics: med((r) => r.metrics),
          failing: [...new Set(all.flatMap((r) => r.failing))],
          thirdPartyRequests: Math.max(...all.map((r) => r.thirdPartyRequests)),
          benchmarkIndex: median(all.map((r) => r.benchmarkIndex ?? Number.NaN)),
        });
      }
    }
    return figures;
  } finally {
    chrome.kill();
  }
}
