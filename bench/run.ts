/**
 * `npm run bench`: performance figures of the production build, started as `npm start` would
 * (scripts/start.js), on a fresh PostgreSQL database that is dropped afterwards. Prints one table
 * and writes bench/results/latest.json. Every comparison is a ratio to a yardstick measured side by
 * side in this run; nothing here passes or fails on a timing (docs/performance.md).
 *
 * Environment: BENCH_SECONDS (per load round, default 5), BENCH_ROUNDS (default 2),
 * BENCH_LIGHTHOUSE_RUNS (default 3), BENCH_ONLY (comma-separated sections: bytes, lighthouse,
 * throughput, live, scaleout, search, bulk, attachments, upload, reports, coldstart, embedded, mail, inbound, replies), BENCH_SCALE_STREAMS (live streams over
 * two instances, default 5000), BENCH_MAIL_COUNT (mails recorded, and delivered to
 * .eml files, default 2000), BENCH_MAIL_SMTP_COUNT (mails delivered over SMTP, default 300),
 * TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres).
 *
 * Each section lives in bench/sections/ (settings, `row` and `part` in common.ts); this file runs
 * them in order: those on the shared server first, then those that start servers of their own.
 */
import fs from 'node:fs';
import { attachmentsSection } from './sections/attachments.ts';
import { bulkSection } from './sections/bulk.ts';
import { bytesSection } from './sections/bytes.ts';
import { coldStartSection } from './sections/cold-start.ts';
import { part } from './sections/common.ts';
import { embeddedSection } from './sections/embedded.ts';
import { inboundSection } from './sections/inbound.ts';
import { lighthouseSection } from './sections/lighthouse.ts';
import { liveSection } from './sections/live.ts';
import { mailSection } from './sections/mail.ts';
import { writeReport } from './sections/report.ts';
import { scaleOutSection } from './sections/scale-out.ts';
import { searchSection } from './sections/search.ts';
import { reportsSection } from './sections/reports.ts';
import { repliesSection } from './sections/replies.ts';
import { prepareServerBench, startBenchServer } from './sections/server.ts';
import { throughputSection } from './sections/throughput.ts';
import { uploadSection } from './sections/upload.ts';

const started = await startBenchServer();
const { database, dataDir, server } = started;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
let exitCode = 0;

try {
  const bench = await prepareServerBench(started, cleanups);
  for (const section of [
    bytesSection,
    lighthouseSection,
    throughputSection,
    liveSection,
    scaleOutSection,
    searchSection,
    bulkSection,
    attachmentsSection,
    uploadSection,
    // Last on the shared server: its 100,000 tickets would weigh on the sections above.
    reportsSection,
  ])
    await part(section, bench);
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
  await server.stop();
}

// After the shared server has stopped.
await part(coldStartSection, { databaseUrl: database.url });
for (const section of [embeddedSection, mailSection, inboundSection, repliesSection]) await part(section);

await database.drop().catch((error: unknown) => console.error(`could not drop ${database.name}:`, error));
fs.rmSync(dataDir, { recursive: true, force: true });

writeReport();
process.exit(exitCode);
