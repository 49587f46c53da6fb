import { CLAIM_OUTCOME_TEXT, CLAIM_PERIOD_NAMES, CLAIM_TEXT, type ClaimOutcome, formatNzd } from './claims.ts';
import { ROLE_TEXT, type StaffRole } from './roles.ts';
import { ERASED_USER } from './account-deletion.ts';
import { FAQ_TYPE_LABELS, type FaqType, LEGAL_DOCUMENT_LABELS, type LegalDocument } from './content.ts';
import { formatNzDateTime, formatNzDay } from './dates.ts';
import { COMPANY_STATUS_LABELS, VERIFIED } from './partner-review.ts';
import type { AuditEntry } from './audit.schemas.ts';

/** The audit log: what admins did, as the console lists it. */

export const AUDIT_ACTIONS = {
  'ticket.answer': 'Answered a ticket',
  'ticket.close': 'Closed a ticket',
  'ticket.reopen': 'Reopened a ticket',
  'ticket.assign': 'Assigned a ticket',
  'ticket.privacy': 'Marked a ticket a privacy request (or not)',
  'ticket.note': 'Added an internal note',
  'ticket.side-start': 'Started a side conversation by mail',
  'ticket.side-reply': 'Wrote in a side conversation',
  'ticket.side-close': 'Closed a side conversation',
  'ticket.labels': 'Changed a ticket’s labels',
  'ticket.macro': 'Applied a macro to a ticket',
  'ticket.macro-undo': 'Undid a macro on a ticket',
  'label.create': 'Added a label',
  'label.rename': 'Renamed a label',
  'label.delete': 'Removed a label',
  'saved-reply.create': 'Added a saved reply',
  'saved-reply.update': 'Edited a saved reply',
  'saved-reply.delete': 'Deleted a saved reply',
  'company.approve': 'Approved a partner application',
  'company.reject': 'Rejected a partner application',
  'company.ban': 'Banned a company',
  'company.unban': 'Unbanned a company',
  'company.notify': 'Emailed a partner decision again',
  'company.request-changes': 'Asked a partner applicant for changes',
  'company.license-accept': 'Accepted a partner’s new licence',
  'company.license-refuse': 'Refused a partner’s new licence',
  'faq.create': 'Added a FAQ entry',
  'faq.update': 'Edited a FAQ entry',
  'faq.delete': 'Deleted a FAQ entry',
  'faq.reorder': 'Reordered FAQ entries',
  'legal.links': 'Changed the legal links',
  'document.update': 'Edited a legal document',
  'user.resend-verification': 'Resent a verification email',
  'user.disable': 'Disabled an account',
  'user.enable': 'Enabled an account',
  'user.sign-out': 'Signed an account out everywhere',
  'user.role': 'Changed an account’s role',
  'user.roles': 'Changed the roles an account holds',
  'user.invite': 'Invited someone to the console',
  'roles.options': 'Changed what auditors may read',
  'mail.retry': 'Sent a failed mail again',
  'mail.post': 'Posted a held mail to its ticket',
  'mail.discard': 'Discarded a held mail',
  'user.erase': 'Erased an account now (its owner asked to delete it)',
  'ticket.keep-for-record': 'Kept a ticket’s messages for the record (or not)',
  'ticket.delivery-reference': 'Gave a ticket its delivery reference (or changed or removed it)',
  'claim.decide': 'Decided an incident claim (or its appeal)',
  'claim.wait-for-sender': 'Set an incident claim to wait for the sender’s answer',
  'claim.ask-traveller': 'Asked the traveller of a delivery to answer a claim',
  'claim.carrier': 'Recorded the partner company that carried a claim’s delivery, and its notice',
  'ticket.merge': 'Merged a ticket into another',
  'ticket.unmerge': 'Undid a merge of tickets',
  'ticket.split': 'Split a ticket into two',
  'ticket.unsplit': 'Undid a split of a ticket',
  'account.deletion-requested': 'Asked to delete their account',
  'account.erased': 'Account erased',
  'admin.second-factor.enrolled': 'Set up a second factor for signing in',
  'admin.second-factor.removed': 'Removed one of their second factors',
  'admin.second-factor.recovery-codes-renewed': 'Got new recovery codes (the old ones stopped working)',
  'service-levels.calendar': 'Changed the business hours',
  'service-levels.targets': 'Changed the service targets',
  'claims.periods': 'Changed the claim periods',
  'api-key.create': 'Made an API key',
  'api-key.revoke': 'Revoked an API key',
  'api-key.rotate': 'Rotated an API key (a new key; the old one ends after the overlap)',
  'webhook.create': 'Added a webhook endpoint',
  'webhook.update': 'Changed a webhook endpoint',
  'webhook.remove': 'Removed a webhook endpoint',
  'webhook.redeliver': 'Delivered a webhook again',
  'webhook.disabled': 'Turned off a webhook endpoint that kept failing',
  'app.ticket.open': 'Opened a ticket for an app user',
  'app.ticket.message': 'Posted an app user’s message',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_TARGETS = [
  'ticket',
  'company',
  'faq',
  'settings',
  'document',
  'user',
  'mail',
  'saved-reply',
  'label',
  'api-key',
  'webhook',
] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

export const AUDIT_PAGE_SIZE = 25;

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? humanise(action);
}

// --- An entry as staff read it --------------------------------------------------------------------

/** A piece of an entry's sentence: words, a record linked to its page in the console, an email. */
export interface AuditPart {
  text: string;
  href?: string;
  email?: boolean;
}
/** Something the entry recorded that its sentence does not say, under a label a person reads. */
export interface AuditFact {
  label: string;
  value: string;
  href?: string;
  email?: boolean;
}
/** An entry read out: one sentence (without the actor: the log names them beside it) and its facts. */
export interface AuditStory {
  sentence: AuditPart[];
  facts: AuditFact[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

const roleName = (role: string) => (role in ROLE_TEXT ? ROLE_TEXT[role as StaffRole].name : role);
const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const quoted = (text: string) => `“${text}”`;
const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-NZ')} ${n === 1 ? one : many}`;

/** 'ticket.keep-for-record' → 'Ticket keep for record'; 'endedSessions' → 'Ended sessions'. */
function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

/** Ids are for machines: a detail named like one is left out of what people read. */
const isIdKey = (key: string) => /(^ids?$)|(Ids?$)|(_ids?$)/.test(key);

/** Any recorded value as a person reads it (dates in New Zealand time); null when it says nothing to them. */
function plainValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return Number.isFinite(value) ? value.toLocaleString('en-NZ') : null;
  if (typeof value === 'string') {
    if (value.trim() === '' || UUID.test(value)) return null;
    if (ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))) return formatNzDateTime(value);
    if (ISO_DAY.test(value) && !Number.isNaN(Date.parse(value))) return formatNzDay(value);
    return value;
  }
  if (Array.isArray(value)) {
    const items = value.map(plainValue).filter((item): item is string => item !== null);
    return items.length > 0 ? items.join(', ') : null;
  }
  if (typeof value === 'object') {
    const pairs = Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => {
      const shown = isIdKey(key) ? null : plainValue(inner);
      return shown === null ? [] : [`${humanise(key).toLowerCase()}: ${shown}`];
    });
    return pairs.length > 0 ? pairs.join('; ') : null;
  }
  return null;
}

const usersPage = (email: string) => `/admin/users?q=${encodeURIComponent(email)}`;

/** A person, by the email the log copied; an erased one is 'Deleted user'. */
function person(email: string | null): AuditPart {
  if (!email) return { text: 'an account' };
  if (email === ERASED_USER) return { text: ERASED_USER };
  return { text: email, email: true, href: usersPage(email) };
}
const personFact = (label: string, email: string | null): AuditFact[] =>
  email ? [{ label, value: email, ...(email === ERASED_USER ? {} : { email: true, href: usersPage(email) }) }] : [];

type Details = Record<string, unknown>;
interface Told {
  sentence: Array<string | AuditPart>;
  facts?: AuditFact[];
  /** Details the sentence or facts said, or that say nothing to a person (ids): not listed again. */
  used?: string[];
}
type Teller = (d: Details, entry: AuditEntry) => Told;

function ticket(entry: AuditEntry, d: Details): AuditPart {
  const no = num(d.ticketNo);
  return {
    text: no === null ? 'a ticket' : `ticket #${no}`,
    ...(entry.targetId ? { href: `/admin/support/${encodeURIComponent(entry.targetId)}` } : {}),
  };
}
const customer = (d: Details) => personFact('Customer', str(d.userEmail));

function company(entry: AuditEntry, d: Details): AuditPart {
  return {
    text: str(d.companyName) ?? 'a partner application',
    ...(entry.targetId ? { href: `/admin/partners/${encodeURIComponent(entry.targetId)}` } : {}),
  };
}
const STATUS_OF_VERIFIED: Record<number, string> = {
  [VERIFIED.pending]: COMPANY_STATUS_LABELS.pending,
  [VERIFIED.verified]: COMPANY_STATUS_LABELS.verified,
  [VERIFIED.rejected]: COMPANY_STATUS_LABELS.rejected,
};
const MAIL_OUTCOME_TEXT: Record<string, string> = {
  queued: 'Decision email queued for the contact person',
  'no-address': 'No email sent: the application has no contact email',
};
/** The decision's facts: the reason, what it was before (when it had been decided), the mail. */
function decisionFacts(d: Details): AuditFact[] {
  const facts: AuditFact[] = [];
  const reason = str(d.reason);
  if (reason) facts.push({ label: 'Reason', value: reason });
  const expires = str(d.licenseExpiresOn);
  if (expires && ISO_DAY.test(expires)) facts.push({ label: 'Licence expires', value: formatNzDay(expires) });
  if (expires === 'never') facts.push({ label: 'Licence expires', value: 'Does not expire' });
  const from = num(d.from);
  if (from !== null && from !== VERIFIED.pending)
    facts.push({ label: 'Before', value: STATUS_OF_VERIFIED[from] ?? String(from) });
  const mail = str(d.mail);
  if (mail) facts.push({ label: 'Email', value: MAIL_OUTCOME_TEXT[mail] ?? humanise(mail) });
  return facts;
}
const decided: Teller = (d) => ({
  sentence: [],
  facts: decisionFacts(d),
  used: ['companyName', 'reason', 'from', 'mail', 'licenseExpiresOn'],
});

const faqTypeTitle = (type: unknown) =>
  typeof type === 'string' && type in FAQ_TYPE_LABELS ? FAQ_TYPE_LABELS[type as FaqType].title : 'FAQ';
const faqsPage = (type: unknown) =>
  typeof type === 'string' && type in FAQ_TYPE_LABELS ? `/admin/faqs?type=${type}` : '/admin/faqs';
function faqEntry(d: Details, link: boolean): AuditPart {
  const title = str(d.title);
  return {
    text: title ? `the FAQ entry ${quoted(title)}` : 'a FAQ entry',
    ...(link ? { href: faqsPage(d.type) } : {}),
  };
}
const FAQ_FIELDS: Record<string, string> = { type: 'type', title: 'title', content: 'content' };

const documentTitle = (slug: string | null) =>
  slug && slug in LEGAL_DOCUMENT_LABELS ? LEGAL_DOCUMENT_LABELS[slug as LegalDocument] : 'a legal document';

function legalLinkFacts(d: Details): AuditFact[] {
  const before = (d.before && typeof d.before === 'object' ? d.before : null) as Details | null;
  return (['terms', 'privacy'] as const).flatMap((key) => {
    const now = str(d[key]);
    const was = before ? str(before[key]) : null;
    const label = `${LEGAL_DOCUMENT_LABELS[key]} link`;
    return [
      ...(now ? [{ label, value: now }] : []),
      ...(was && was !== now ? [{ label: `${label} before`, value: was }] : []),
    ];
  });
}

const SECOND_FACTOR_KINDS: Record<string, string> = { totp: 'authenticator app', passkey: 'passkey' };
function secondFactor(d: Details): string {
  const kind = str(d.kind);
  const label = str(d.label);
  const what = kind ? (SECOND_FACTOR_KINDS[kind] ?? kind) : 'second factor';
  // A label that only repeats the kind ('Authenticator app') says nothing more.
  return label && label.toLowerCase() !== what.toLowerCase() ? `${what} ${quoted(label)}` : what;
}

const heldMail: AuditPart = { text: 'held mail', href: '/admin/mail/incoming' };

/** Every action the server records, told as a sentence (the type makes a new action need one). */
const TELLERS: Record<AuditAction, Teller> = {
  'ticket.answer': (d, e) => ({
    sentence: ['Answered ', ticket(e, d), d.via === 'email' ? ' by email' : ''],
    facts: customer(d),
    used: ['ticketNo', 'userEmail', 'via'],
  }),
  'ticket.close': (d, e) => ({
    sentence: ['Closed ', ticket(e, d)],
    facts: customer(d),
    used: ['ticketNo', 'userEmail'],
  }),
  'ticket.reopen': (d, e) => ({
    sentence: ['Reopened ', ticket(e, d)],
    facts: customer(d),
    used: ['ticketNo', 'userEmail'],
  }),
  'ticket.assign': (d, e) => {
    const to = str(d.assignee);
    return {
      sentence: to ? ['Assigned ', ticket(e, d), ' to ', person(to)] : ['Unassigned ', ticket(e, d)],
      used: ['ticketNo', 'assignee'],
    };
  },
  'ticket.privacy': (d, e) => {
    const due = str(d.due);
    return d.privacy === false
      ? { sentence: ['Marked ', ticket(e, d), ' as not a privacy request'], used: ['ticketNo', 'privacy', 'due'] }
      : {
          sentence: ['Marked ', ticket(e, d), ' a privacy request'],
          facts: due && ISO_DAY.test(due) ? [{ label: 'Answer by', value: formatNzDay(due) }] : [],
          used: ['ticketNo', 'privacy', 'due'],
        };
  },
  'ticket.note': (d, e) => ({ sentence: ['Added an internal note to ', ticket(e, d)], used: ['ticketNo'] }),
  'ticket.side-start': (d, e) => ({
    sentence: [`Started a side conversation with ${str(d.counterpart) ?? 'someone'} on `, ticket(e, d)],
    facts: str(d.subject) ? [{ label: 'Subject', value: str(d.subject)! }] : [],
    used: ['ticketNo', 'counterpart', 'subject', 'sideId'],
  }),
  'ticket.side-reply': (d, e) => ({
    sentence: [`Wrote to ${str(d.counterpart) ?? 'someone'} in a side conversation on `, ticket(e, d)],
    used: ['ticketNo', 'counterpart', 'sideId'],
  }),
  'ticket.side-close': (d, e) => ({
    sentence: [`Closed the side conversation with ${str(d.counterpart) ?? 'someone'} on `, ticket(e, d)],
    used: ['ticketNo', 'counterpart', 'sideId'],
  }),
  'ticket.merge': (d, e) => ({
    sentence: [`Merged #${num(d.sourceTicketNo) ?? '?'} into `, ticket(e, d)],
    used: ['ticketNo', 'sourceTicketNo', 'sourceTicketId'],
  }),
  'ticket.split': (d, e) => ({
    sentence: [`Split #${num(d.sourceTicketNo) ?? '?'} into `, ticket(e, d)],
    used: ['ticketNo', 'sourceTicketNo', 'sourceTicketId'],
  }),
  'ticket.unsplit': (d, e) => ({
    sentence: [`Undid the split of #${num(d.sourceTicketNo) ?? '?'} into `, ticket(e, d)],
    used: ['ticketNo', 'sourceTicketNo', 'sourceTicketId'],
  }),
  'ticket.unmerge': (d, e) => ({
    sentence: [`Undid the merge of #${num(d.sourceTicketNo) ?? '?'} into `, ticket(e, d)],
    used: ['ticketNo', 'sourceTicketNo', 'sourceTicketId'],
  }),
  'ticket.keep-for-record': (d, e) => ({
    sentence:
      d.keep === false
        ? ['Stopped keeping the messages of ', ticket(e, d), ' for the record']
        : ['Kept the messages of ', ticket(e, d), ' for the record'],
    used: ['ticketNo', 'keep'],
  }),
  'claim.decide': (d, e) => ({
    sentence: [
      'Decided the claim of ',
      ticket(e, d),
      `: ${CLAIM_OUTCOME_TEXT[str(d.outcome) as ClaimOutcome] ?? str(d.outcome) ?? '?'}`,
    ],
    facts: [
      ...(num(d.amountCents) !== null ? [{ label: 'Amount', value: formatNzd(num(d.amountCents)!) }] : []),
      ...(str(d.reason) ? [{ label: 'Reason', value: str(d.reason)! }] : []),
    ],
    used: ['ticketNo', 'outcome', 'amountCents', 'reason', 'version'],
  }),
  'claim.wait-for-sender': (d, e) => ({
    sentence: ['Set the claim of ', ticket(e, d), ' to wait for the sender'],
    used: ['ticketNo'],
  }),
  'claim.ask-traveller': (d, e) => ({
    sentence: ['Asked ', str(d.email) ?? 'the traveller', ' to answer the claim of ', ticket(e, d)],
    used: ['ticketNo', 'email'],
  }),
  'claim.carrier': (d, e) => ({
    sentence: str(d.companyId)
      ? ['Recorded the partner company that carried the delivery of ', ticket(e, d)]
      : ['Removed the partner company from the claim of ', ticket(e, d)],
    facts: str(d.noticeSentOn) ? [{ label: 'Notice given on', value: formatNzDay(str(d.noticeSentOn)!) }] : [],
    used: ['ticketNo', 'companyId', 'noticeSentOn'],
  }),
  'ticket.delivery-reference': (d, e) => {
    const before = str(d.before);
    const now = str(d.now);
    return {
      sentence: now
        ? [
            before ? 'Changed the delivery reference of ' : 'Gave ',
            ticket(e, d),
            before ? ` to ${now}` : ` the delivery reference ${now}`,
          ]
        : ['Removed the delivery reference of ', ticket(e, d)],
      facts: before ? [{ label: 'Before', value: before }] : [],
      used: ['ticketNo', 'before', 'now'],
    };
  },
  'ticket.labels': (d, e) => {
    const names = Array.isArray(d.labels) ? d.labels.filter((name): name is string => typeof name === 'string') : [];
    return {
      sentence:
        names.length === 0
          ? ['Took every label off ', ticket(e, d)]
          : ['Labelled ', ticket(e, d), ` ${names.map(quoted).join(', ')}`],
      used: ['ticketNo', 'labels'],
    };
  },
  'ticket.macro': (d, e) => {
    const did = Array.isArray(d.did) ? d.did.filter((line): line is string => typeof line === 'string') : [];
    return {
      sentence: ['Applied the macro ', savedReply(d, true), ' to ', ticket(e, d)],
      facts: did.length > 0 ? [{ label: 'What it did', value: did.join('; ') }] : [],
      used: ['ticketNo', 'title', 'did', 'messageId', 'noteId'],
    };
  },
  'ticket.macro-undo': (d, e) => ({
    sentence: ['Undid the macro ', savedReply(d, false), ' on ', ticket(e, d)],
    used: ['ticketNo', 'title'],
  }),
  'label.create': (d) => ({ sentence: ['Added the label ', labelPart(d, true)], used: ['name'] }),
  'label.rename': (d) => ({ sentence: ['Renamed a label to ', labelPart(d, true)], used: ['name'] }),
  'label.delete': (d) => ({
    sentence: ['Removed the label ', labelPart(d, false), num(d.tickets) ? ` from ${num(d.tickets)} tickets` : ''],
    used: ['name', 'tickets'],
  }),
  'saved-reply.create': (d) => ({ sentence: ['Added the saved reply ', savedReply(d, true)], used: ['title'] }),
  'saved-reply.update': (d) => ({ sentence: ['Edited the saved reply ', savedReply(d, true)], used: ['title'] }),
  'saved-reply.delete': (d) => ({ sentence: ['Deleted the saved reply ', savedReply(d, false)], used: ['title'] }),
  'company.approve': (d, e) => ({ ...decided(d, e), sentence: ['Approved the application of ', company(e, d)] }),
  'company.reject': (d, e) => ({ ...decided(d, e), sentence: ['Rejected the application of ', company(e, d)] }),
  'company.ban': (d, e) => ({ sentence: ['Banned ', company(e, d)], used: ['companyName'] }),
  'company.unban': (d, e) => ({ sentence: ['Lifted the ban on ', company(e, d)], used: ['companyName'] }),
  'company.notify': (d, e) => ({
    ...decided(d, e),
    sentence: ['Emailed the decision on ', company(e, d), ' again'],
  }),
  'company.request-changes': (d, e) => ({
    ...decided(d, e),
    sentence: ['Asked ', company(e, d), ' for changes to its application'],
  }),
  'company.license-accept': (d, e) => ({
    ...decided(d, e),
    sentence: ['Accepted the new licence of ', company(e, d)],
  }),
  'company.license-refuse': (d, e) => ({
    ...decided(d, e),
    sentence: ['Refused the new licence of ', company(e, d)],
  }),
  'faq.create': (d) => ({
    sentence: ['Added ', faqEntry(d, true), ` to the ${faqTypeTitle(d.type)}`],
    used: ['title', 'type', 'content'],
  }),
  'faq.update': (d) => {
    const before = (d.before && typeof d.before === 'object' ? d.before : {}) as Details;
    const changed = Array.isArray(d.changed) ? d.changed.filter((c): c is string => typeof c === 'string') : [];
    const facts: AuditFact[] = [];
    if (changed.length > 0)
      facts.push({
        label: 'Changed',
        value: changed.map((c) => FAQ_FIELDS[c] ?? humanise(c).toLowerCase()).join(', '),
      });
    if (changed.includes('type')) facts.push({ label: 'Was in', value: faqTypeTitle(before.type) });
    const title = str(before.title);
    if (changed.includes('title') && title) facts.push({ label: 'Title before', value: title });
    const content = str(before.content);
    if (changed.includes('content') && content) facts.push({ label: 'Content before', value: content });
    return {
      sentence: ['Changed ', faqEntry(d, true), ` in the ${faqTypeTitle(d.type)}`],
      facts,
      used: ['title', 'type', 'changed', 'before'],
    };
  },
  'faq.delete': (d) => {
    const content = str(d.content);
    return {
      sentence: ['Deleted ', faqEntry(d, false), ` from the ${faqTypeTitle(d.type)}`],
      // The log holds the only copy left.
      facts: content ? [{ label: 'Its content', value: content }] : [],
      used: ['title', 'type', 'content'],
    };
  },
  'faq.reorder': (d) => ({
    sentence: ['Changed the order of the ', { text: faqTypeTitle(d.type), href: faqsPage(d.type) }],
    used: ['type', 'ids'],
  }),
  'legal.links': (d) => ({
    sentence: ['Changed the ', { text: 'legal links', href: '/admin/legal' }],
    facts: legalLinkFacts(d),
    used: ['terms', 'privacy', 'before'],
  }),
  'document.update': (d, e) => {
    const characters = num(d.characters);
    const title = str(d.title);
    return {
      sentence: ['Edited the ', { text: documentTitle(e.targetId), href: '/admin/legal' }],
      facts: [
        ...(title ? [{ label: 'Title', value: title }] : []),
        ...(characters !== null ? [{ label: 'Length', value: count(characters, 'character') }] : []),
      ],
      used: ['title', 'characters'],
    };
  },
  'user.resend-verification': (d) => ({
    sentence: ['Resent the verification email to ', person(str(d.email))],
    used: ['email'],
  }),
  'user.disable': (d) => {
    const ended = num(d.endedSessions);
    return {
      sentence: ['Disabled the account of ', person(str(d.email))],
      facts: ended !== null ? [{ label: 'Signed out of', value: count(ended, 'session') }] : [],
      used: ['email', 'endedSessions'],
    };
  },
  'user.enable': (d) => ({ sentence: ['Enabled the account of ', person(str(d.email))], used: ['email'] }),
  'user.sign-out': (d) => {
    const ended = num(d.endedSessions);
    return {
      sentence: ['Signed ', person(str(d.email)), ' out everywhere'],
      facts: ended !== null ? [{ label: 'Signed out of', value: count(ended, 'session') }] : [],
      used: ['email', 'endedSessions'],
    };
  },
  'user.role': (d) => {
    const from = str(d.from);
    const to = str(d.to);
    return {
      sentence: [
        'Changed the role of ',
        person(str(d.email)),
        from && to ? ` from ${from} to ${to}` : to ? ` to ${to}` : '',
      ],
      used: ['email', 'from', 'to'],
    };
  },
  'user.roles': (d) => {
    const names = (value: unknown) =>
      Array.isArray(value) ? value.map((role) => roleName(String(role))).join(', ') || 'none' : null;
    const from = names(d.from);
    const to = names(d.to);
    return {
      sentence: ['Changed the roles of ', person(str(d.email))],
      facts: [
        ...(from !== null ? [{ label: 'Before', value: from }] : []),
        ...(to !== null ? [{ label: 'Now', value: to }] : []),
      ],
      used: ['email', 'from', 'to'],
    };
  },
  'user.invite': (d) => ({
    sentence: ['Invited ', person(str(d.email)), ' to the console'],
    facts: Array.isArray(d.roles)
      ? [{ label: 'Roles', value: d.roles.map((role) => roleName(String(role))).join(', ') }]
      : [],
    used: ['email', 'roles'],
  }),
  'roles.options': (d) => ({
    sentence: [
      d.auditorReadsHeldMail === true
        ? 'Let auditors read held mail whole'
        : 'Stopped auditors reading held mail whole',
    ],
    used: ['auditorReadsHeldMail'],
  }),
  'mail.retry': (d) => {
    const recipient = str(d.recipient);
    const subject = str(d.subject);
    const mail = recipient ? `/admin/mail?q=${encodeURIComponent(recipient)}` : '/admin/mail';
    return {
      sentence: [
        subject ? 'Sent the failed mail ' : 'Sent a ',
        { text: subject ? quoted(subject) : 'failed mail', href: mail },
        ...(recipient ? [' to ', { text: recipient, email: true }] : []),
        ' again',
      ],
      used: ['recipient', 'subject'],
    };
  },
  'mail.post': (d, e) => {
    const ticketId = str(d.ticketId);
    const no = e.ticketNo ?? null;
    return {
      sentence: [
        'Posted a ',
        heldMail,
        ' to ',
        no === null
          ? { text: 'its ticket' }
          : { text: `ticket #${no}`, ...(ticketId ? { href: `/admin/support/${encodeURIComponent(ticketId)}` } : {}) },
      ],
      used: ['ticketId', 'messageId'],
    };
  },
  'mail.discard': () => ({ sentence: ['Discarded a ', heldMail] }),
  'user.erase': (d) => ({
    sentence: ['Erased the account of ', person(str(d.email)), ' now, as its owner had asked'],
    used: ['email'],
  }),
  'account.deletion-requested': (d) => {
    const no = num(d.ticketNo);
    const eraseAfter = str(d.eraseAfter);
    const ended = num(d.endedSessions);
    return {
      sentence: ['Asked to delete their account'],
      facts: [
        ...(eraseAfter && !Number.isNaN(Date.parse(eraseAfter))
          ? [{ label: 'To be erased', value: formatNzDateTime(eraseAfter) }]
          : []),
        ...(no !== null ? [{ label: 'Their ticket', value: `#${no}`, href: `/admin/support?q=${no}` }] : []),
        ...(ended !== null ? [{ label: 'Signed out of', value: count(ended, 'session') }] : []),
      ],
      used: ['eraseAfter', 'ticketNo', 'endedSessions'],
    };
  },
  'account.erased': (d) => {
    const facts: AuditFact[] = [];
    const deleted = num(d.deletedTickets);
    const kept = num(d.keptTickets);
    const files = num(d.files);
    if (deleted !== null) facts.push({ label: 'Tickets deleted', value: deleted.toLocaleString('en-NZ') });
    if (kept !== null) facts.push({ label: 'Tickets kept for the record', value: kept.toLocaleString('en-NZ') });
    if (files !== null) facts.push({ label: 'Files deleted', value: files.toLocaleString('en-NZ') });
    return {
      sentence: ['Erased an account, as its owner had asked'],
      facts,
      used: ['deletedTickets', 'keptTickets', 'files'],
    };
  },
  'admin.second-factor.enrolled': (d) => ({
    sentence: [`Set up a second factor for signing in: ${secondFactor(d)}`],
    used: ['kind', 'label'],
  }),
  'admin.second-factor.removed': (d) => ({
    sentence: [`Removed a second factor: ${secondFactor(d)}`],
    used: ['kind', 'label'],
  }),
  'admin.second-factor.recovery-codes-renewed': () => ({
    sentence: ['Got new recovery codes (the old ones stopped working)'],
  }),
  'service-levels.calendar': () => ({
    sentence: ['Changed the ', { text: 'business hours', href: '/admin/business-hours' }],
    used: ['before', 'after'],
  }),
  'service-levels.targets': () => ({
    sentence: ['Changed the ', { text: 'service targets', href: '/admin/business-hours#targets' }],
    used: ['before', 'after'],
  }),
  'claims.periods': (d) => {
    const before = (d.before ?? {}) as Details;
    const after = (d.after ?? {}) as Details;
    const changed = CLAIM_PERIOD_NAMES.flatMap((name) => {
      const was = num(before[name]);
      const now = num(after[name]);
      return was !== null && now !== null && was !== now
        ? [CLAIM_TEXT.periodChange(CLAIM_TEXT.periodLabels[name], was, now)]
        : [];
    });
    return {
      sentence: ['Changed the ', { text: 'claim periods', href: '/admin/business-hours#claim-periods' }],
      facts: changed.length > 0 ? [{ label: 'Changed', value: changed.join('; ') }] : [],
      used: ['before', 'after'],
    };
  },
  'api-key.create': (d) => ({
    sentence: ['Made the API key ', apiKey(d)],
    facts: scopeFacts(d),
    used: ['name', 'lastFour', 'scopes'],
  }),
  'api-key.revoke': (d) => ({ sentence: ['Revoked the API key ', apiKey(d)], used: ['name', 'lastFour'] }),
  'api-key.rotate': (d) => ({
    sentence: [
      'Rotated the API key ',
      apiKey(d),
      str(d.replaced) ? `, which replaces the one ending in ${str(d.replaced)}` : '',
    ],
    used: ['name', 'lastFour', 'replaced'],
  }),
  'webhook.create': (d) => ({
    sentence: ['Added the webhook endpoint ', webhook(str(d.url))],
    facts: eventFacts(d.events),
    used: ['url', 'events'],
  }),
  'webhook.update': (d) => {
    const now = (d.now ?? {}) as Details;
    return {
      sentence: [
        now.enabled === false ? 'Turned off the webhook endpoint ' : 'Changed the webhook endpoint ',
        webhook(str(now.url)),
      ],
      facts: eventFacts(now.events),
      used: ['before', 'now'],
    };
  },
  'webhook.remove': (d) => ({ sentence: ['Removed the webhook endpoint ', webhook(str(d.url))], used: ['url'] }),
  'webhook.redeliver': () => ({
    sentence: ['Delivered a ', { text: 'webhook', href: '/admin/integrations' }, ' again'],
    used: ['deliveryId'],
  }),
  'webhook.disabled': (d) => ({
    sentence: ['Turned off the webhook endpoint ', webhook(str(d.url))],
    facts: str(d.reason) ? [{ label: 'Why', value: str(d.reason)! }] : [],
    used: ['url', 'reason'],
  }),
  'app.ticket.open': (d, e) => ({
    sentence: ['Opened ', ticket(e, d), ' for ', person(str(d.user))],
    facts: str(d.deliveryReference) ? [{ label: 'Delivery', value: str(d.deliveryReference)! }] : [],
    used: ['ticketNo', 'user', 'deliveryReference'],
  }),
  'app.ticket.message': (d, e) => ({
    sentence: ['Posted the app user’s message on ', ticket(e, d)],
    used: ['ticketNo', 'messageId'],
  }),
};

function apiKey(d: Details): AuditPart {
  const name = str(d.name);
  const lastFour = str(d.lastFour);
  return {
    text: `${name ? quoted(name) : 'key'}${lastFour ? ` (ending in ${lastFour})` : ''}`,
    href: '/admin/integrations',
  };
}
const webhook = (url: string | null): AuditPart => ({ text: url ?? 'a webhook endpoint', href: '/admin/integrations' });
const scopeFacts = (d: Details): AuditFact[] =>
  Array.isArray(d.scopes) ? [{ label: 'What it may do', value: d.scopes.map(String).join(', ') }] : [];
const eventFacts = (events: unknown): AuditFact[] =>
  Array.isArray(events) ? [{ label: 'Events', value: events.map(String).join(', ') }] : [];

function labelPart(d: Details, link: boolean): AuditPart {
  const name = str(d.name);
  return { text: name ? quoted(name) : 'without a name', ...(link ? { href: '/admin/labels' } : {}) };
}

function savedReply(d: Details, link: boolean): AuditPart {
  const title = str(d.title);
  return { text: title ? quoted(title) : 'without a title', ...(link ? { href: '/admin/saved-replies' } : {}) };
}

/** An action this version does not know (a newer server's): its name in words, and the record. */
const unknownAction: Teller = (_d, entry) => {
  const id = entry.targetId && !UUID.test(entry.targetId) ? ` ${entry.targetId}` : '';
  return {
    sentence: [auditActionLabel(entry.action)],
    facts: [{ label: 'Record', value: `${humanise(entry.targetType)}${id}` }],
  };
};

/** Who acted, as the log shows them: their copied email, or the site itself (an erasure it ran). */
export const auditActor = (entry: Pick<AuditEntry, 'actorEmail'>): string => entry.actorEmail ?? 'Automatic';

/**
 * An entry as staff read it: one sentence from its action and details ('Approved the application
 * of Kea Couriers Ltd'), records linked to their page in the console, and whatever else it
 * recorded under labels, never raw keys, ids or ISO timestamps.
 */
export function describeAudit(entry: AuditEntry): AuditStory {
  const details: Details = entry.details ?? {};
  const teller = Object.hasOwn(TELLERS, entry.action) ? TELLERS[entry.action as AuditAction] : unknownAction;
  const told = teller(details, entry);
  const used = new Set(told.used ?? []);
  const rest = Object.entries(details).flatMap(([key, value]): AuditFact[] => {
    if (used.has(key) || isIdKey(key)) return [];
    const shown = plainValue(value);
    return shown === null ? [] : [{ label: humanise(key), value: shown }];
  });
  const sentence = told.sentence
    .map((part) => (typeof part === 'string' ? { text: part } : part))
    .filter((part) => part.text !== '');
  return { sentence, facts: [...(told.facts ?? []), ...rest] };
}

/** The sentence alone, as text. */
export const auditSentence = (entry: AuditEntry): string =>
  describeAudit(entry)
    .sentence.map((part) => part.text)
    .join('');
