import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, type AuditAction, auditSentence, describeAudit } from './audit.ts';
import type { AuditEntry } from './audit.schemas.ts';

/** Every action the server records reads as a sentence a person understands, never raw keys, ids or ISO times. */

const TICKET = '3f1c2a4e-8b7d-4c2e-9a10-5d6e7f809a1b';
const COMPANY = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const USER = '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
const MESSAGE = 'aa11bb22-cc33-4d44-8e55-ff6677889900';

/** What each action's entry holds, as the services record it. */
const SAMPLES: Record<AuditAction, Pick<AuditEntry, 'targetType' | 'targetId' | 'details'> & { ticketNo?: number }> = {
  'ticket.answer': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, userEmail: 'tane@example.com', messageId: MESSAGE },
  },
  'ticket.close': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, userEmail: 'tane@example.com' },
  },
  'ticket.reopen': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, userEmail: 'tane@example.com' },
  },
  'ticket.assign': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, assignee: 'aroha@example.com' },
  },
  'ticket.privacy': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, privacy: true, due: '2026-12-24' },
  },
  'ticket.note': { targetType: 'ticket', targetId: TICKET, details: { ticketNo: 1004, messageId: MESSAGE } },
  'ticket.side-start': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, sideId: MESSAGE, counterpart: 'desk@kea.example', subject: 'A bag at Wellington' },
  },
  'ticket.side-reply': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, sideId: MESSAGE, counterpart: 'desk@kea.example' },
  },
  'ticket.side-close': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, sideId: MESSAGE, counterpart: 'desk@kea.example' },
  },
  'ticket.keep-for-record': { targetType: 'ticket', targetId: TICKET, details: { ticketNo: 1004, keep: true } },
  'ticket.delivery-reference': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, before: 'BGS-1001', now: 'BGS-1002' },
  },
  'claim.decide': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, outcome: 'part', amountCents: 4550, version: 2 },
  },
  'claim.wait-for-sender': { targetType: 'ticket', targetId: TICKET, details: { ticketNo: 1004 } },
  'claim.ask-traveller': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, email: 'sam.traveller@example.nz' },
  },
  'claim.carrier': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, companyId: MESSAGE, noticeSentOn: '2026-12-01' },
  },
  'ticket.unsplit': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, sourceTicketNo: 1009, sourceTicketId: MESSAGE },
  },
  'ticket.split': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, sourceTicketNo: 1009, sourceTicketId: MESSAGE },
  },
  'ticket.unmerge': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, sourceTicketNo: 1009, sourceTicketId: MESSAGE },
  },
  'ticket.merge': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, sourceTicketNo: 1009, sourceTicketId: MESSAGE },
  },
  'ticket.labels': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, labels: ['Lost bag', 'Refund'] },
  },
  'ticket.macro': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, title: 'Lost bag', did: ['Added a label', 'Close the ticket'], messageId: 7, noteId: 8 },
  },
  'ticket.macro-undo': { targetType: 'ticket', targetId: TICKET, details: { ticketNo: 1004, title: 'Lost bag' } },
  'label.create': { targetType: 'label', targetId: MESSAGE, details: { name: 'Lost bag' } },
  'label.rename': { targetType: 'label', targetId: MESSAGE, details: { name: 'Lost bag' } },
  'label.delete': { targetType: 'label', targetId: MESSAGE, details: { name: 'Lost bag', tickets: 3 } },
  'saved-reply.create': { targetType: 'saved-reply', targetId: MESSAGE, details: { title: 'Lost bag' } },
  'service-levels.calendar': {
    targetType: 'settings',
    targetId: 'business-calendar',
    details: {
      before: { anniversary: null, overrides: [] },
      after: { anniversary: 'WGN', overrides: [{ date: '2026-12-24', spans: [], note: 'Closed' }] },
    },
  },
  'service-levels.targets': {
    targetType: 'settings',
    targetId: 'service-targets',
    details: { before: { General: { firstResponse: 480 } }, after: { General: { firstResponse: 240 } } },
  },
  'claims.periods': {
    targetType: 'settings',
    targetId: 'claim-periods',
    details: {
      before: {
        claimWindowDays: 7,
        travellerAnswerDays: 2,
        decisionDays: 5,
        appealWindowDays: 10,
        appealDecisionDays: 5,
      },
      after: {
        claimWindowDays: 7,
        travellerAnswerDays: 3,
        decisionDays: 5,
        appealWindowDays: 15,
        appealDecisionDays: 5,
      },
    },
  },
  'saved-reply.update': { targetType: 'saved-reply', targetId: MESSAGE, details: { title: 'Lost bag' } },
  'saved-reply.delete': { targetType: 'saved-reply', targetId: MESSAGE, details: { title: 'Lost bag' } },
  'company.approve': {
    targetType: 'company',
    targetId: COMPANY,
    details: { companyName: 'Kea Couriers Ltd', from: 0, mail: 'queued' },
  },
  'company.reject': {
    targetType: 'company',
    targetId: COMPANY,
    details: { companyName: 'Kea Couriers Ltd', from: 1, reason: 'The licence has expired.', mail: 'no-address' },
  },
  'company.ban': { targetType: 'company', targetId: COMPANY, details: { companyName: 'Kea Couriers Ltd' } },
  'company.unban': { targetType: 'company', targetId: COMPANY, details: { companyName: 'Kea Couriers Ltd' } },
  'company.notify': {
    targetType: 'company',
    targetId: COMPANY,
    details: { companyName: 'Kea Couriers Ltd', mail: 'queued' },
  },
  'company.request-changes': {
    targetType: 'company',
    targetId: COMPANY,
    details: {
      companyName: 'Kea Couriers Ltd',
      reason: 'We could not read your licence. Please send a clearer photo or scan of it.',
      mail: 'queued',
    },
  },
  'company.license-accept': {
    targetType: 'company',
    targetId: COMPANY,
    details: { companyName: 'Kea Couriers Ltd', licenseExpiresOn: '2027-12-03', mail: 'queued' },
  },
  'company.license-refuse': {
    targetType: 'company',
    targetId: COMPANY,
    details: { companyName: 'Kea Couriers Ltd', reason: 'Unreadable', mail: 'queued' },
  },
  'faq.create': { targetType: 'faq', targetId: '12', details: { type: 'sender', title: 'Can I send jam?' } },
  'faq.update': {
    targetType: 'faq',
    targetId: '12',
    details: {
      type: 'traveller',
      title: 'Can I carry jam?',
      changed: ['type', 'title'],
      before: { type: 'sender', title: 'Can I send jam?', content: 'Yes.' },
    },
  },
  'faq.delete': {
    targetType: 'faq',
    targetId: '12',
    details: { type: 'general', title: 'Can I send jam?', content: 'Yes, sealed.' },
  },
  'faq.reorder': { targetType: 'faq', targetId: null, details: { type: 'general', ids: [3, 1, 2] } },
  'legal.links': {
    targetType: 'settings',
    targetId: 'legal/links',
    details: {
      terms: 'https://example.com/terms',
      privacy: 'https://example.com/privacy',
      before: { terms: 'https://example.com/old-terms', privacy: 'https://example.com/privacy' },
    },
  },
  'document.update': { targetType: 'document', targetId: 'terms', details: { title: 'Terms', characters: 1234 } },
  'user.resend-verification': { targetType: 'user', targetId: USER, details: { email: 'tane@example.com' } },
  'user.disable': { targetType: 'user', targetId: USER, details: { email: 'tane@example.com', endedSessions: 2 } },
  'user.sign-out': { targetType: 'user', targetId: USER, details: { email: 'tane@example.com', endedSessions: 3 } },
  'user.enable': { targetType: 'user', targetId: USER, details: { email: 'tane@example.com' } },
  'user.role': {
    targetType: 'user',
    targetId: USER,
    details: { email: 'tane@example.com', from: 'user', to: 'admin' },
  },
  'user.roles': {
    targetType: 'user',
    targetId: USER,
    details: { email: 'tane@example.com', from: ['agent'], to: ['agent', 'lead'] },
  },
  'api-key.create': {
    targetType: 'api-key',
    targetId: MESSAGE,
    details: { name: 'App', lastFour: 'x9Qz', scopes: ['tickets:write'], expiresAt: '2027-12-01T01:02:03.000Z' },
  },
  'api-key.revoke': { targetType: 'api-key', targetId: MESSAGE, details: { name: 'App', lastFour: 'x9Qz' } },
  'api-key.rotate': {
    targetType: 'api-key',
    targetId: MESSAGE,
    details: { name: 'App', lastFour: 'k2Lm', replaced: 'x9Qz', oldEndsAt: '2026-12-02T01:02:03.000Z' },
  },
  'webhook.create': {
    targetType: 'webhook',
    targetId: MESSAGE,
    details: { url: 'https://app.example.com/hooks', events: ['ticket.created'] },
  },
  'webhook.update': {
    targetType: 'webhook',
    targetId: MESSAGE,
    details: {
      before: { url: 'https://app.example.com/hooks', events: ['ticket.created'], enabled: true },
      now: { url: 'https://app.example.com/hooks', events: ['ticket.created', 'ticket.rated'], enabled: true },
    },
  },
  'webhook.remove': { targetType: 'webhook', targetId: MESSAGE, details: { url: 'https://app.example.com/hooks' } },
  'webhook.redeliver': { targetType: 'webhook', targetId: MESSAGE, details: { deliveryId: 42 } },
  'webhook.disabled': {
    targetType: 'webhook',
    targetId: MESSAGE,
    details: { url: 'https://app.example.com/hooks', reason: 'It failed every delivery for 3 days.' },
  },
  'app.ticket.open': {
    targetType: 'ticket',
    targetId: TICKET,
    details: { ticketNo: 1004, user: 'tane@example.com', deliveryReference: 'BGS-1001' },
  },
  'app.ticket.message': { targetType: 'ticket', targetId: TICKET, details: { ticketNo: 1004, messageId: 77 } },
  'user.invite': {
    targetType: 'user',
    targetId: 'tane@example.com',
    details: { email: 'tane@example.com', roles: ['agent'] },
  },
  'roles.options': {
    targetType: 'settings',
    targetId: 'staff/role-options',
    details: { auditorReadsHeldMail: true },
  },
  'mail.retry': {
    targetType: 'mail',
    targetId: '77',
    details: { recipient: 'tane@example.com', subject: 'Your ticket #1004' },
  },
  'mail.post': { targetType: 'mail', targetId: '8', details: { ticketId: TICKET, messageId: MESSAGE }, ticketNo: 1004 },
  'mail.discard': { targetType: 'mail', targetId: '9', details: {} },
  'user.erase': { targetType: 'user', targetId: USER, details: { email: 'tane@example.com' } },
  'account.deletion-requested': {
    targetType: 'user',
    targetId: USER,
    details: { eraseAfter: '2026-12-27T09:13:39.965Z', ticketNo: 1005, endedSessions: 1 },
  },
  'account.erased': { targetType: 'user', targetId: USER, details: { deletedTickets: 2, keptTickets: 1, files: 3 } },
  'admin.second-factor.enrolled': { targetType: 'user', targetId: USER, details: { kind: 'totp', label: 'Phone' } },
  'admin.second-factor.removed': { targetType: 'user', targetId: USER, details: { kind: 'passkey', label: 'YubiKey' } },
  'admin.second-factor.recovery-codes-renewed': { targetType: 'user', targetId: USER, details: {} },
};

const entry = (
  action: string,
  sample: (typeof SAMPLES)[AuditAction],
  actorEmail = 'aroha@example.com',
): AuditEntry => ({
  id: 1,
  at: '2026-12-01T01:02:03.000Z',
  actorEmail,
  action,
  ...sample,
});

/** The sentence each sample reads as. */
const EXPECTED: Record<AuditAction, string> = {
  'ticket.answer': 'Answered ticket #1004',
  'ticket.close': 'Closed ticket #1004',
  'ticket.reopen': 'Reopened ticket #1004',
  'ticket.assign': 'Assigned ticket #1004 to aroha@example.com',
  'ticket.privacy': 'Marked ticket #1004 a privacy request',
  'ticket.note': 'Added an internal note to ticket #1004',
  'ticket.side-start': 'Started a side conversation with desk@kea.example on ticket #1004',
  'ticket.side-reply': 'Wrote to desk@kea.example in a side conversation on ticket #1004',
  'ticket.side-close': 'Closed the side conversation with desk@kea.example on ticket #1004',
  'ticket.keep-for-record': 'Kept the messages of ticket #1004 for the record',
  'ticket.delivery-reference': 'Changed the delivery reference of ticket #1004 to BGS-1002',
  'claim.decide': 'Decided the claim of ticket #1004: Upheld in part',
  'claim.wait-for-sender': 'Set the claim of ticket #1004 to wait for the sender',
  'claim.ask-traveller': 'Asked sam.traveller@example.nz to answer the claim of ticket #1004',
  'claim.carrier': 'Recorded the partner company that carried the delivery of ticket #1004',
  'ticket.merge': 'Merged #1009 into ticket #1004',
  'ticket.unmerge': 'Undid the merge of #1009 into ticket #1004',
  'ticket.split': 'Split #1009 into ticket #1004',
  'ticket.unsplit': 'Undid the split of #1009 into ticket #1004',
  'ticket.labels': 'Labelled ticket #1004 “Lost bag”, “Refund”',
  'ticket.macro': 'Applied the macro “Lost bag” to ticket #1004',
  'ticket.macro-undo': 'Undid the macro “Lost bag” on ticket #1004',
  'label.create': 'Added the label “Lost bag”',
  'label.rename': 'Renamed a label to “Lost bag”',
  'label.delete': 'Removed the label “Lost bag” from 3 tickets',
  'saved-reply.create': 'Added the saved reply “Lost bag”',
  'saved-reply.update': 'Edited the saved reply “Lost bag”',
  'saved-reply.delete': 'Deleted the saved reply “Lost bag”',
  'company.approve': 'Approved the application of Kea Couriers Ltd',
  'company.reject': 'Rejected the application of Kea Couriers Ltd',
  'company.ban': 'Banned Kea Couriers Ltd',
  'company.unban': 'Lifted the ban on Kea Couriers Ltd',
  'company.notify': 'Emailed the decision on Kea Couriers Ltd again',
  'company.request-changes': 'Asked Kea Couriers Ltd for changes to its application',
  'company.license-accept': 'Accepted the new licence of Kea Couriers Ltd',
  'company.license-refuse': 'Refused the new licence of Kea Couriers Ltd',
  'faq.create': 'Added the FAQ entry “Can I send jam?” to the Sender FAQ',
  'faq.update': 'Changed the FAQ entry “Can I carry jam?” in the Traveller FAQ',
  'faq.delete': 'Deleted the FAQ entry “Can I send jam?” from the General FAQ',
  'faq.reorder': 'Changed the order of the General FAQ',
  'legal.links': 'Changed the legal links',
  'document.update': 'Edited the Terms and Conditions',
  'user.resend-verification': 'Resent the verification email to tane@example.com',
  'user.disable': 'Disabled the account of tane@example.com',
  'user.sign-out': 'Signed tane@example.com out everywhere',
  'user.enable': 'Enabled the account of tane@example.com',
  'user.role': 'Changed the role of tane@example.com from user to admin',
  'user.roles': 'Changed the roles of tane@example.com',
  'user.invite': 'Invited tane@example.com to the console',
  'api-key.create': 'Made the API key “App” (ending in x9Qz)',
  'api-key.revoke': 'Revoked the API key “App” (ending in x9Qz)',
  'api-key.rotate': 'Rotated the API key “App” (ending in k2Lm), which replaces the one ending in x9Qz',
  'webhook.create': 'Added the webhook endpoint https://app.example.com/hooks',
  'webhook.update': 'Changed the webhook endpoint https://app.example.com/hooks',
  'webhook.remove': 'Removed the webhook endpoint https://app.example.com/hooks',
  'webhook.redeliver': 'Delivered a webhook again',
  'webhook.disabled': 'Turned off the webhook endpoint https://app.example.com/hooks',
  'app.ticket.open': 'Opened ticket #1004 for tane@example.com',
  'app.ticket.message': 'Posted the app user’s message on ticket #1004',
  'roles.options': 'Let auditors read held mail whole',
  'mail.retry': 'Sent the failed mail “Your ticket #1004” to tane@example.com again',
  'mail.post': 'Posted a held mail to ticket #1004',
  'mail.discard': 'Discarded a held mail',
  'user.erase': 'Erased the account of tane@example.com now, as its owner had asked',
  'account.deletion-requested': 'Asked to delete their account',
  'account.erased': 'Erased an account, as its owner had asked',
  'admin.second-factor.enrolled': 'Set up a second factor for signing in: authenticator app “Phone”',
  'admin.second-factor.removed': 'Removed a second factor: passkey “YubiKey”',
  'admin.second-factor.recovery-codes-renewed': 'Got new recovery codes (the old ones stopped working)',
  'service-levels.calendar': 'Changed the business hours',
  'service-levels.targets': 'Changed the service targets',
  'claims.periods': 'Changed the claim periods',
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const ISO = /\d{4}-\d{2}-\d{2}(T|\b)/;

/** Everything a person reads of an entry, as one text. */
const readOut = (e: AuditEntry) => {
  const { sentence, facts } = describeAudit(e);
  return [sentence.map((p) => p.text).join(''), ...facts.map((f) => `${f.label}: ${f.value}`)].join('\n');
};

describe('audit sentences', () => {
  it.each(Object.keys(AUDIT_ACTIONS) as AuditAction[])('%s reads as a plain sentence', (action) => {
    const e = entry(action, SAMPLES[action]);
    expect(auditSentence(e)).toBe(EXPECTED[action]);
    const text = readOut(e);
    expect(text).not.toMatch(UUID);
    expect(text).not.toMatch(ISO);
    for (const { label } of describeAudit(e).facts) {
      // Labels are words, not keys: no camelCase, dots or dashes.
      expect(label).toMatch(/^[A-Z][A-Za-z ]*[a-z]$/);
      expect(label).not.toMatch(/[a-z][A-Z]/);
    }
  });

  it('links the records to their console pages', () => {
    const link = (action: AuditAction) =>
      describeAudit(entry(action, SAMPLES[action])).sentence.find((p) => p.href)?.href;
    expect(link('ticket.close')).toBe(`/admin/support/${TICKET}`);
    expect(link('company.approve')).toBe(`/admin/partners/${COMPANY}`);
    expect(link('user.disable')).toBe('/admin/users?q=tane%40example.com');
    expect(link('faq.create')).toBe('/admin/faqs?type=sender');
    expect(link('mail.post')).toBe('/admin/mail/incoming');
    expect(describeAudit(entry('mail.post', SAMPLES['mail.post'])).sentence.at(-1)).toEqual({
      text: 'ticket #1004',
      href: `/admin/support/${TICKET}`,
    });
  });

  it('says the details the sentence does not, in words and New Zealand time', () => {
    const facts = (action: AuditAction) => describeAudit(entry(action, SAMPLES[action])).facts;
    expect(facts('ticket.answer')).toEqual([
      { label: 'Customer', value: 'tane@example.com', email: true, href: '/admin/users?q=tane%40example.com' },
    ]);
    expect(facts('company.approve')).toEqual([
      { label: 'Email', value: 'Decision email queued for the contact person' },
    ]);
    expect(facts('company.reject')).toEqual([
      { label: 'Reason', value: 'The licence has expired.' },
      { label: 'Before', value: 'Verified' },
      { label: 'Email', value: 'No email sent: the application has no contact email' },
    ]);
    expect(facts('ticket.privacy')).toEqual([{ label: 'Answer by', value: '24 Dec 2026' }]);
    expect(facts('account.deletion-requested')).toEqual([
      { label: 'To be erased', value: expect.stringMatching(/^27 Dec 2026, 10:13\s?pm$/) },
      { label: 'Their ticket', value: '#1005', href: '/admin/support?q=1005' },
      { label: 'Signed out of', value: '1 session' },
    ]);
    expect(facts('faq.update')).toEqual([
      { label: 'Changed', value: 'type, title' },
      { label: 'Was in', value: 'Sender FAQ' },
      { label: 'Title before', value: 'Can I send jam?' },
    ]);
    expect(facts('claims.periods')).toEqual([
      { label: 'Changed', value: 'Traveller’s answer: 2 → 3 working days; Window to appeal: 10 → 15 working days' },
    ]);
    expect(facts('legal.links')).toEqual([
      { label: 'Terms and Conditions link', value: 'https://example.com/terms' },
      { label: 'Terms and Conditions link before', value: 'https://example.com/old-terms' },
      { label: 'Privacy Policy link', value: 'https://example.com/privacy' },
    ]);
  });

  it('reads the other side of the switches', () => {
    const ticket = { targetType: 'ticket', targetId: TICKET } as const;
    expect(auditSentence(entry('ticket.keep-for-record', { ...ticket, details: { ticketNo: 7, keep: false } }))).toBe(
      'Stopped keeping the messages of ticket #7 for the record',
    );
    expect(
      auditSentence(
        entry('ticket.delivery-reference', { ...ticket, details: { ticketNo: 7, before: null, now: 'BGS-1' } }),
      ),
    ).toBe('Gave ticket #7 the delivery reference BGS-1');
    expect(
      auditSentence(
        entry('ticket.delivery-reference', { ...ticket, details: { ticketNo: 7, before: 'BGS-1', now: null } }),
      ),
    ).toBe('Removed the delivery reference of ticket #7');
    expect(
      auditSentence(entry('ticket.privacy', { ...ticket, details: { ticketNo: 7, privacy: false, due: null } })),
    ).toBe('Marked ticket #7 as not a privacy request');
    expect(auditSentence(entry('ticket.assign', { ...ticket, details: { ticketNo: 7, assignee: null } }))).toBe(
      'Unassigned ticket #7',
    );
    expect(auditSentence(entry('ticket.answer', { ...ticket, details: { ticketNo: 7, via: 'email' } }))).toBe(
      'Answered ticket #7 by email',
    );
  });

  it('does not repeat a second factor label that only names its kind', () => {
    const own = { targetType: 'user', targetId: USER } as const;
    expect(
      auditSentence(
        entry('admin.second-factor.enrolled', { ...own, details: { kind: 'totp', label: 'Authenticator app' } }),
      ),
    ).toBe('Set up a second factor for signing in: authenticator app');
  });

  it('names an erased person as Deleted user, without a link', () => {
    const { sentence } = describeAudit(
      entry('user.disable', { targetType: 'user', targetId: USER, details: { email: 'Deleted user' } }),
    );
    expect(sentence.at(-1)).toEqual({ text: 'Deleted user' });
  });

  it('reads an action it does not know, and details it does not know, in words', () => {
    const e = entry('widget.spin-up', {
      targetType: 'widget',
      targetId: USER,
      details: { spinCount: 3, startedAt: '2026-12-27T09:13:39.965Z', ownerId: USER, fast: true, mode: 'turbo' },
    });
    expect(auditSentence(e)).toBe('Widget spin up');
    const text = readOut(e);
    expect(text).toContain('Record: Widget');
    expect(text).toContain('Spin count: 3');
    expect(text).toMatch(/Started at: 27 Dec 2026, 10:13\s?pm/);
    expect(text).toContain('Fast: Yes');
    expect(text).toContain('Mode: turbo');
    expect(text).not.toMatch(UUID);
    expect(text).not.toMatch(/ownerId|spinCount/);
  });

  it('survives an entry without details', () => {
    for (const action of Object.keys(AUDIT_ACTIONS)) {
      const e = entry(action, { targetType: 'ticket', targetId: null, details: null });
      expect(auditSentence(e)).toMatch(/^[A-Z]/);
      expect(readOut(e)).not.toMatch(/undefined|null|NaN|\[object/);
    }
  });
});
