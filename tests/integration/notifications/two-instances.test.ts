import { sql } from 'drizzle-orm';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/server/db/sql.ts';
import { createOutbox } from '../../../src/server/mail/outbox.ts';
import { recordFigure } from '../../helpers/figures.ts';
import { startServer, type ServerProcess } from '../../helpers/server-process.ts';
import { startSmtpSink } from '../../helpers/smtp-sink.ts';
import { openTestDatabase, testDatabaseKind } from '../../helpers/test-app.ts';
import { waitUntil } from '../../helpers/wait.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const MAILS = 1000;

describe.runIf(testDatabaseKind === 'postgres')('two app instances on one PostgreSQL', () => {
  it(`deliver ${MAILS} recorded mails between them, each exactly once`, async () => {
    const db = await openTestDatabase();
    cleanups.push(() => db.close());
    const sink = await startSmtpSink();
    cleanups.push(() => sink.close());

    // Recorded first, as a burst of activity would; both instances then share the queue.
    const outbox = createOutbox({ domain: 'example.nz', retryHours: 24 });
    const recipients = Array.from({ length: MAILS }, (_, i) => `person-${i}@example.nz`);
    for (const [i, to] of recipients.entries()) {
      await outbox.enqueue(db.database.db, {
        kind: 'team-new-ticket',
        to,
        subject: `Mail ${i}`,
        text: `Mail number ${i}`,
        html: `<p>Mail number ${i}</p>`,
      });
    }

    const servers: ServerProcess[] = [];
    for (let i = 0; i < 2; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bagspace-mail-instance-${i}-`));
      const server = startServer({
        DATABASE_URL: db.url!,
        DATA_DIR: dataDir,
        PORT: '0',
        SMTP_URL: sink.url,
        LOG_LEVEL: 'info',
      });
      servers.push(server);
      cleanups.push(async () => {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      });
    }
    await Promise.all(servers.map((s) => s.ready));

    const unsent = async () => {
      const [row] = await queryRows<{ n: unknown }>(
        db.database.db,
        sql`select count(*) as n from mail_outbox where state <> 'sent'`,
      );
      return Number(row!.n);
    };
    // The sink has a mail a moment before its sender records it as sent: wait for both.
    await waitUntil(
      `${MAILS} mails at the sink and recorded as sent`,
      async () => sink.messages.length >= MAILS && (await unsent()) === 0,
      { timeoutMs: 90_000, intervalMs: 100, seen: () => `${sink.messages.length} at the sink` },
    );
    expect(await unsent()).toBe(0);
    // Both instances stop cleanly (finishing any round in flight) before the count is final.
    for (const server of servers) expect(await server.stop()).toBe(0);

    const perInstance = servers.map(
      (s) =>
        s
          .output()
          .split('\n')
          .filter((line) => line.includes('"msg":"mail delivered"')).length,
    );
    const ids = new Set(sink.messages.map((m) => m.messageId));
    const values = {
      mails: MAILS,
      received: sink.messages.length,
      distinct: ids.size,
      duplicates: sink.messages.length - ids.size,
      perInstance,
    };
    console.log(`outbox-two-instances: ${JSON.stringify(values)}`);
    recordFigure('outbox-two-instances', { checks: ['DATA-02'], label: 'Two instances share one mail queue', values });
    expect(sink.messages).toHaveLength(MAILS);
    expect(ids.size).toBe(MAILS);
    expect(new Set(sink.messages.map((m) => m.envelopeTo[0])).size).toBe(MAILS);
    expect(perInstance.reduce((a, b) => a + b, 0)).toBe(MAILS);
    expect(perInstance.every((n) => n > 0)).toBe(true);
  });
});
