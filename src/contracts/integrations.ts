/**
 * How the company's own systems connect (docs/integrations.md): service API keys with scopes, and
 * webhooks. Keys are not people: a key calls only the endpoints whose declaration names one of its
 * scopes (`keyScopes`), and everything it does is audited under its name.
 */

export const API_SCOPES = ['tickets:read', 'tickets:write', 'partners:read', 'webhooks:manage'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const SCOPE_TEXT: Readonly<Record<ApiScope, string>> = {
  'tickets:read': "Read app users' tickets and their conversations (never the team's notes).",
  'tickets:write': 'Open tickets for app users and post their messages.',
  'partners:read': "Read partner companies' names and where their applications stand.",
  'webhooks:manage': 'Add, change and remove webhook endpoints, read their deliveries and deliver again.',
};

/** A key as the app sends it: this prefix, then 43 characters of base64url (32 random bytes). */
export const API_KEY_PREFIX = 'bsk_';
export const API_KEY_SHAPE = /^bsk_[A-Za-z0-9_-]{43}$/;

export const API_KEY_LIMITS = {
  nameMax: 80,
  /** A key lives at most two years; a year unless the admin says otherwise. */
  expiryDaysMax: 730,
  expiryDaysDefault: 365,
  /** How long the old key keeps working after a rotation (hours). */
  overlapHoursMax: 168,
  overlapHoursDefault: 24,
  /** Requests a key may make per minute (KEY_REQUESTS_PER_MINUTE overrides). */
  requestsPerMinute: 600,
  /** Keys one deployment keeps (live, expired and revoked together). */
  keys: 200,
} as const;

export const WEBHOOK_EVENTS = [
  'ticket.created',
  'ticket.message.created',
  'ticket.status.changed',
  'ticket.merged',
  'ticket.rated',
  'partner.decided',
  'claim.decided',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_TEXT: Readonly<Record<WebhookEvent, string>> = {
  'ticket.created': 'A ticket was opened (on the website, by the app, or by mail).',
  'ticket.message.created': "A customer's message or the team's answer (never an internal note).",
  'ticket.status.changed': 'A ticket was closed or reopened.',
  'ticket.merged': 'A ticket was merged into another.',
  'ticket.rated': 'A customer rated a closed ticket, or changed their rating.',
  'partner.decided': 'A partner application was approved or rejected, or a company banned.',
  'claim.decided': 'An incident claim was decided (once for each version of the claim), or its appeal.',
};

export const WEBHOOK_LIMITS = {
  urlMax: 500,
  descriptionMax: 200,
  endpoints: 50,
  /** Each delivery is tried for a day from its event. */
  retryHours: 24,
  /** An endpoint failing this long with no success is turned off (and the admins told). */
  disableAfterDays: 3,
  /** How long an endpoint has to answer, in seconds. */
  timeoutSeconds: 10,
  /** Deliveries listed per page of the log. */
  pageSize: 50,
} as const;

export const INTEGRATION_TEXT = {
  title: 'Integrations',
  intro:
    "Connect the Bagspace app and the company's other systems: API keys that are not anyone's password, and webhooks that tell them what happens here.",
  keysTitle: 'API keys',
  keysIntro:
    'A key is shown once, when it is made. Store it in the app’s secrets; here it is listed by name and its last four characters.',
  noKeys: 'No API keys yet.',
  keyName: 'Name',
  keyScopes: 'What it may do',
  keyExpiry: 'Expires after (days)',
  createKey: 'Create key',
  revoke: 'Revoke',
  rotate: 'Rotate',
  overlapHours: 'Old key keeps working for (hours)',
  keyCreated: 'Copy this key now: it will not be shown again.',
  keyRotated: 'The new key is below; the old one keeps working until the time shown beside it.',
  keyRevoked: (name: string) => `The key “${name}” no longer works.`,
  nameRequired: 'Enter a name for the key.',
  nameTooLong: `A key's name can be at most ${API_KEY_LIMITS.nameMax} characters.`,
  scopesRequired: 'Choose at least one thing the key may do.',
  scopeUnknown: 'One of those is not a scope of ours.',
  expiryRange: `A key can last from 1 to ${API_KEY_LIMITS.expiryDaysMax} days.`,
  overlapRange: `The old key can keep working for 0 to ${API_KEY_LIMITS.overlapHoursMax} hours.`,
  tooManyKeys: `A deployment keeps at most ${API_KEY_LIMITS.keys} keys; remove old ones first.`,
  keyMissing: 'That key no longer exists.',
  keyEnded: 'That key has been revoked or has expired.',
  /** What a caller with a key is told. */
  keyInvalid: 'This API key is not valid: it may have been revoked or have expired.',
  keyNotAllowed: 'This API key may not call this endpoint.',
  keyOnly: 'This endpoint is for API keys.',
  tooManyRequests: 'This API key made too many requests. Try again in a minute.',
  webhooksTitle: 'Webhooks',
  webhooksIntro:
    'Each endpoint receives the events it listens for, signed as the Standard Webhooks specification says, and retried for a day.',
  noWebhooks: 'No webhook endpoints yet.',
  url: 'Endpoint URL',
  description: 'Description',
  events: 'Events',
  addWebhook: 'Add endpoint',
  saveWebhook: 'Save',
  removeWebhook: 'Remove endpoint',
  enabled: 'Enabled',
  disabled: 'Disabled',
  secret: 'Signing secret',
  showSecret: 'Show signing secret',
  deliveries: 'Deliveries',
  noDeliveries: 'Nothing delivered yet.',
  deliverAgain: 'Deliver again',
  deliveringAgain: 'It will be delivered again in a moment.',
  urlRequired: 'Enter the endpoint’s URL.',
  urlInvalid: 'Enter a full URL starting with https://.',
  urlTooLong: `An endpoint URL can be at most ${WEBHOOK_LIMITS.urlMax} characters.`,
  descriptionTooLong: `A description can be at most ${WEBHOOK_LIMITS.descriptionMax} characters.`,
  eventsRequired: 'Choose at least one event.',
  eventUnknown: 'One of those is not an event of ours.',
  tooManyWebhooks: `At most ${WEBHOOK_LIMITS.endpoints} webhook endpoints.`,
  webhookMissing: 'That webhook endpoint no longer exists.',
  deliveryMissing: 'That delivery no longer exists.',
  /** Why the app turned an endpoint off. */
  failingDisabled: `It failed every delivery for ${WEBHOOK_LIMITS.disableAfterDays} days.`,
  /** The app's tickets. */
  userMissing: 'No account has that email or id.',
  userRequired: 'Name the app user by their account email or their id.',
} as const;
