import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { sessions } from '../../../src/server/db/schema.ts';
import { png, postFiles } from '../../helpers/attachment-files.ts';
import { supportUser, type SupportUser } from '../../helpers/support.ts';
import type { TestApp } from '../../helpers/test-app.ts';

/** A user with two tickets, each with a photo of theirs and the team's answer; returns what they hold. */
export async function userWithFiles(t: TestApp, admin: SupportUser) {
  const user = await supportUser(t);
  const tickets = [];
  for (const text of ['My bag arrived torn.', 'Invoice question.']) {
    const { ticketId, ticketNo } = await user.createTicket('Incident', text);
    const res = await postFiles(
      t,
      `/api/support/tickets/${ticketId}/messages`,
      user.headers,
      { messageBody: 'Photo' },
      [{ name: 'photo.png', data: await png() }],
    );
    expect(res.statusCode, res.body).toBe(200);
    const attachmentId = res.json<{ message: { attachments: Array<{ id: string }> } }>().message.attachments[0]!.id;
    expect(
      (await admin.post(`/api/admin/support/tickets/${ticketId}/messages`, { messageBody: 'On it.' })).statusCode,
    ).toBe(200);
    tickets.push({ ticketId, ticketNo, attachmentId });
  }
  return { user, tickets };
}

export const keysOf = (keys: string[], attachmentId: string) => keys.filter((k) => k.includes(attachmentId));

/**
 * An admin's sessions count as having passed the second factor (the admin console needs it,
 * docs/product.md §2.15); these tests are about erasure, not about signing in.
 */
export async function adminUser(t: TestApp): Promise<SupportUser> {
  const admin = await supportUser(t, { role: 'admin' });
  await t.database.db
    .update(sessions)
    .set({ secondFactorAt: sql`now()` })
    .where(eq(sessions.userId, admin.id));
  return admin;
}
