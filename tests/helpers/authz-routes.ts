/**
 * The rows of the authorization matrix (tests/security/authz/matrix.test.ts) and what each must
 * answer. The rows are the endpoint declarations (src/contracts/api/index.ts: method, path, whether
 * it is a stream, whether it takes a body) and the few routes that are not API declarations (PAGES).
 * What each must answer is written here by hand, keyed by the declaration's name (EXPECTED), and
 * never read from the declaration: a declaration whose `access` is wrong fails the matrix. Beside
 * it, a real object for every path parameter (PARAMS) and a valid body for every endpoint that takes
 * one (BODIES), so that a refusal comes from authorization, not validation. A new declaration, a new
 * path parameter or a new body fails the matrix until it is given an entry here.
 */
import { eq, sql } from 'drizzle-orm';
import { type EndpointKey, namedEndpoints } from '../../src/contracts/api/index.ts';
import type { EndpointDeclaration } from '../../src/contracts/endpoint.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { DEFAULT_CALENDAR, DEFAULT_TARGETS } from '../../src/contracts/service-levels.ts';
import { CLAIM_PERIODS } from '../../src/contracts/claims.ts';
import { companies, companyStatusLinks, faqs, supportTickets, users } from '../../src/server/db/schema.ts';
import { createAccountsRepository } from '../../src/server/modules/accounts/accounts.repository.ts';
import { createAccountSessionsRepository } from '../../src/server/modules/accounts/accounts.sessions.repository.ts';
import { createToken, hashToken } from '../../src/server/security/tokens.ts';
import { encodeForm, pngOf, validCompany } from './registration.ts';
import { strongPassword, uniqueEmail } from './accounts.ts';
import { generateSecret } from 'otplib';
import { createSecondFactorRepository } from '../../src/server/modules/second-factor/second-factor.repository.ts';
import { totpAt } from './second-factor.ts';
import { softwareAuthenticator } from './software-authenticator.ts';
import {
  type Actor,
  db,
  type Fixtures,
  type PrincipalName,
  publicBaseUrl,
  SAVED_REPLY_ID,
  type StaffRoleName,
} from './authz-world.ts';

// --- What each route must answer -----------------------------------------------------------------

/**
 * The staff roles that may call a console route, written here by hand for each route (never read
 * from src/contracts/roles.ts or a declaration): the role × route table of docs/decisions/147.
 */
type Roles = readonly StaffRoleName[];
const ADMIN: Roles = ['admin'];
/** Every member of staff: their own second factors and console settings. */
const STAFF: Roles = ['admin', 'lead', 'agent', 'reviewer', 'auditor'];
/** Who reads the inbox and tickets. */
const DESK_READERS: Roles = ['admin', 'lead', 'agent', 'auditor'];
/** Who answers and changes tickets. */
const DESK: Roles = ['admin', 'lead', 'agent'];
/** Who sets the desk up: saved replies, labels, hours and targets. */
const LEADS: Roles = ['admin', 'lead'];
const REPORT_READERS: Roles = ['admin', 'lead', 'auditor'];
const PARTNER_READERS: Roles = ['admin', 'reviewer', 'auditor'];
const REVIEWERS: Roles = ['admin', 'reviewer'];
/** Content, accounts, the audit log and integrations: the admin changes, the auditor reads. */
const ADMIN_AND_AUDITOR: Roles = ['admin', 'auditor'];
const MAIL_READERS: Roles = ['admin', 'lead', 'auditor'];
/** What held mail says, and deciding it (an auditor only when the admin allows: not in the matrix's world). */
const HELD_MAIL_READERS: Roles = ['admin', 'lead'];

/**
 * `owner`: a verified user's route about one of their own objects (another user gets 404, like a
 * missing object). `owner-or-desk`: the same, but staff who read tickets may use it too (the live
 * ticket stream, a message's files). A list of roles: a console route those roles may call.
 */
/** `key`: a service API key's route (/api/app): every session, staff's included, is refused. */
type Guard = 'public' | 'user' | 'verified' | 'key' | 'owner' | 'owner-or-desk' | Roles;
/** The access a declaration must name for its guard ('staff': any staff permission, checked cell by cell). */
export const declaredFor = (guard: Guard): string =>
  typeof guard === 'string'
    ? (({ owner: 'verified', 'owner-or-desk': 'verified' } as Record<string, string>)[guard] ?? guard)
    : 'staff';

export interface RouteSpec {
  guard: Guard;
  /** The status every allowed principal gets (200 unless given). */
  ok?: number;
  /**
   * The fixture is the admin actor's own (a second factor being set up): any other allowed staff
   * member gets past the access check to this answer, as the object is not theirs.
   */
  notTheirs?: number;
  /** A query string the route needs to be valid. */
  query?: string;
  /** Sends mail in the background when allowed: refused cells after it wait for the outbox to settle. */
  mails?: boolean;
  /** Puts the fixtures in the state where the allowed call succeeds (after the common reset). */
  prepare?: (fx: Fixtures) => Promise<void>;
}

const R = (guard: Guard, extra: Omit<RouteSpec, 'guard'> = {}): RouteSpec => ({ guard, ...extra });

/** The fixture company's status link token (the matrix sets its hash on the company). */
const STATUS_TOKEN = 'MatrixStatusToken_0123456789abcdefghijklmno';

/** An application of its own whose status link token is STATUS_TOKEN. */
const statusLinkCompany = async () => {
  const [company] = await db()
    .insert(companies)
    .values({
      companyName: 'Status Link Matrix Ltd',
      address: '1 Matrix Street, Wellington',
      phoneNumber: '041234567',
      nameKey: 'status link matrix ltd',
      phoneKey: '041234567',
    })
    .onConflictDoNothing()
    .returning({ id: companies.id });
  if (company)
    await db()
      .insert(companyStatusLinks)
      .values({ tokenHash: hashToken(STATUS_TOKEN), companyId: company.id });
};

/** The status link's application waits for a new licence (docs/decisions/113-changes-requested.md). */
const changesWaiting = async () => {
  await statusLinkCompany();
  await db()
    .update(companies)
    .set({
      verified: 0,
      isBanned: false,
      reviewStage: 'changes_requested',
      requestedChanges: { reasons: ['missing-document'], fields: ['license'], note: null },
    })
    .where(eq(companies.nameKey, 'status link matrix ltd'));
};

const setCompany = (values: Partial<typeof companies.$inferInsert>) => async (f: Fixtures) => {
  await db().update(companies).set(values).where(eq(companies.id, f.companyId));
};

/** An approved company with a new licence waiting for an admin (no file behind the key). */
const renewalWaiting = setCompany({
  verified: 1,
  renewalLicenseKey: 'commercialLicenses/matrix-renewal.png',
  renewalSentAt: new Date(),
});

async function issueEmailToken(userId: string, purpose: 'verify-email' | 'reset-password'): Promise<string> {
  const token = createToken();
  await createAccountsRepository(db()).replaceEmailToken({
    userId,
    purpose,
    tokenHash: hashToken(token),
    ttlMs: 3600_000,
  });
  return token;
}

/** An email-change link of an account made for it (the change moves that account, nobody else's). */
let emailChangeToken = '';
async function issueEmailChangeToken(): Promise<string> {
  const user = await createAccountsRepository(db()).insertUser({
    email: uniqueEmail('matrix-mover'),
    passwordHash: 'not-a-hash',
    role: 'user',
    verified: true,
  });
  const token = createToken();
  await createAccountSessionsRepository(db()).replaceChangeEmailToken({
    userId: user!.id,
    tokenHash: hashToken(token),
    newEmail: uniqueEmail('matrix-moved'),
    ttlMs: 3600_000,
  });
  return token;
}

/** The admin actor's authenticator app waiting for its first code, and a passkey challenge. */
const MATRIX_TOTP_SECRET = generateSecret();
const enrolment = { factorId: '', challenge: '', origin: '' };

async function pendingTotp(f: Fixtures) {
  const row = await createSecondFactorRepository(db()).insertPendingTotp({
    userId: f.actors.admin.userId!,
    secret: MATRIX_TOTP_SECRET,
    label: 'Matrix',
  });
  enrolment.factorId = row.id;
}

async function passkeyChallenge(f: Fixtures) {
  enrolment.challenge = createToken();
  enrolment.origin = new URL(publicBaseUrl()).origin;
  await createSecondFactorRepository(db()).saveChallenge({
    userId: f.actors.admin.userId!,
    purpose: 'passkey-register',
    challenge: enrolment.challenge,
    challengeHash: hashToken(enrolment.challenge),
    ttlMs: 60_000,
  });
}

/** A spare passkey of the admin actor, for the removal cell (the last factor cannot be removed). */
const spare = { factorId: '' };
async function spareFactor(f: Fixtures) {
  const repo = createSecondFactorRepository(db());
  await repo.insertPasskey({
    userId: f.actors.admin.userId!,
    label: 'Matrix spare',
    credentialId: createToken(),
    publicKey: 'not-a-key',
    signCount: 0,
    transports: [],
  });
  const spareRow = (await repo.confirmedFactors(f.actors.admin.userId!)).find((row) => row.label === 'Matrix spare');
  spare.factorId = spareRow!.id;
}

const CATCH_ALL_METHODS = ['GET', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY'];

/**
 * The routes that are not API declarations, by method and url (the web catch-all `/*` is not in
 * the matrix: the test app is built without the web bundle). A route of the route table that is
 * neither a declaration nor listed here fails the matrix.
 */
export const PAGES: Record<string, RouteSpec> = {
  'GET /healthz': R('public'),
  'GET /readyz': R('public'),
  'GET /api/openapi.json': R('public'),
  'GET /documents/:slug': R('public'),
  'GET /robots.txt': R('public'),
  'GET /sitemap.xml': R('public'),
  // The /api/* catch-all answers 404 to everyone, whatever the method.
  ...Object.fromEntries(CATCH_ALL_METHODS.map((m) => [`${m} /api/*`, R('public', { ok: 404 })])),
};

/**
 * What each declaration must answer, by its name, written by hand and never read from the
 * declaration. A declaration missing here, or an entry for a declaration that does not exist, fails
 * the matrix (and the type check).
 */
export const EXPECTED: Record<EndpointKey, RouteSpec> = {
  'content.faqs': R('public', { query: '?type=general' }),
  'content.legalLinks': R('public'),

  'partners.register': R('public', { ok: 201 }),
  // The applicant's status link (docs/decisions/112-application-status-page.md): anyone holding it.
  // Its own application (no contact email), so what the link shows is not the fixture applicant's.
  'partners.status': R('public', { prepare: statusLinkCompany }),
  // A new link to the applications of a contact address; the same answer whoever asks.
  'partners.statusLink': R('public', { ok: 202, mails: true }),
  // Anyone holding the link sends what was asked for (docs/decisions/113-changes-requested.md).
  'partners.sendChanges': R('public', { prepare: changesWaiting }),
  'partnerReview.license': R(PARTNER_READERS),
  // The matrix company's licence is an image: an image has no PDF preview (decision 130).
  'partnerReview.licensePreview': R(PARTNER_READERS, { ok: 404 }),

  'auth.login': R('public'),
  // The matrix's login user has no passkey: after the right password, a field error for everyone.
  'secondFactor.passkeySignInOptions': R('public', { ok: 400 }),
  // Admins' second factor (docs/product.md §2.15): the admin actor passed it; everyone else is refused.
  'secondFactor.status': R(STAFF),
  'secondFactor.beginTotp': R(STAFF),
  'secondFactor.confirmTotp': R(STAFF, { prepare: pendingTotp, notTheirs: 400 }),
  'secondFactor.passkeyRegistrationOptions': R(STAFF),
  'secondFactor.registerPasskey': R(STAFF, { prepare: passkeyChallenge, notTheirs: 400 }),
  'secondFactor.removeFactor': R(STAFF, { prepare: spareFactor, notTheirs: 404 }),
  'secondFactor.renewRecoveryCodes': R(STAFF),
  'auth.logout': R('public'),
  'auth.session': R('user'),
  'auth.signup': R('public', { ok: 202, mails: true }),
  'auth.verifyEmail': R('public', {
    prepare: async (f) => {
      await db().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, f.verifyUser.id));
      f.verifyToken = await issueEmailToken(f.verifyUser.id, 'verify-email');
    },
  }),
  'auth.resendVerification': R('public', { ok: 202, mails: true }),
  'auth.forgotPassword': R('public', { ok: 202, mails: true }),
  'auth.resetPassword': R('public', {
    mails: true,
    prepare: async (f) => {
      f.resetToken = await issueEmailToken(f.resetUser.id, 'reset-password');
    },
  }),
  'auth.changePassword': R('user', { mails: true }),

  'support.createTicketCall': R('verified'),
  'support.listTickets': R('verified'),
  'support.ticketsStream': R('verified'),
  'support.ticket': R('owner'),
  'support.messages': R('owner'),
  'support.messagesStream': R('owner-or-desk'),
  'support.reply': R('owner'),
  'support.createTicket': R('verified', { ok: 201 }),
  // Files on messages (docs/product.md §2.11): the ticket's owner and admins only.
  'attachments.file': R('owner-or-desk'),
  'attachments.thumbnail': R('owner-or-desk'),

  'desk.listTickets': R(DESK_READERS),
  'desk.ticketsStream': R(DESK_READERS),
  'desk.ticket': R(DESK_READERS),
  'desk.reply': R(DESK),
  'desk.presence': R(DESK_READERS),
  'desk.close': R(DESK),
  'desk.reopen': R(DESK, {
    prepare: async (f) => {
      await db().update(supportTickets).set({ open: false }).where(eq(supportTickets.id, f.ownerTicket.ticketId));
    },
  }),

  // The desk's tools (docs/product.md §2.10).
  // What the owner's page saw (no mail for it): the owner's alone, like the thread it is about.
  'support.seen': R('owner'),
  'support.rate': R('owner', {
    prepare: async (f) => {
      await db().update(supportTickets).set({ open: false }).where(eq(supportTickets.id, f.ownerTicket.ticketId));
    },
  }),
  'desk.addNote': R(DESK),
  'desk.assign': R(DESK),
  'desk.setPrivacy': R(DESK),
  // The delivery on the ticket (docs/decisions/151-delivery-card.md): staff who change tickets give
  // it; everyone who reads tickets sees its card (in the matrix's world the card is not set up: 'off').
  'desk.setDeliveryReference': R(DESK),
  'desk.delivery': R(DESK_READERS),
  // Incident claims (docs/decisions/152-incident-claims.md): the matrix's ticket has none (null; a decision 404).
  'claims.claim': R(DESK_READERS),
  'claims.decide': R(DESK, { ok: 404 }),
  'claims.waitForSender': R(DESK, { ok: 404 }),
  'claims.askTraveller': R(DESK, { ok: 404 }),
  'claims.carrier': R(DESK, { ok: 404 }),
  // The traveller's page: any verified account reaches the check, and only the address asked has
  // the claim (the matrix's claim id is none: 404 for all). The sender's: their own ticket's claim.
  'claims.travellerClaim': R('verified', { ok: 404 }),
  'claims.travellerAnswer': R('verified', { ok: 404 }),
  'claims.senderClaim': R('verified'),
  'claims.appeal': R('verified', { ok: 404 }),
  // The fixture's saved reply has no actions and no reply is given: nothing to do (409), nothing changed.
  'desk.applyMacro': R(DESK, { ok: 409 }),
  'desk.agents': R(DESK_READERS),
  'desk.figures': R(DESK_READERS),
  'desk.firstSteps': R(DESK_READERS),
  'desk.search': R(DESK_READERS, { query: '?q=parcel' }),
  'desk.savedReplies': R(DESK_READERS),
  'desk.createSavedReply': R(LEADS),
  'desk.updateSavedReply': R(LEADS),
  'desk.deleteSavedReply': R(LEADS),
  'labels.list': R(DESK_READERS),
  'labels.create': R(LEADS),
  'labels.rename': R(LEADS, { ok: 404 }),
  'labels.remove': R(LEADS, { ok: 404 }),
  'labels.setTicketLabels': R(DESK),
  'bulk.apply': R(DESK),
  // Nobody's bulk action: the admin's cell is 409 (nothing to undo), everyone else's is refused first.
  'bulk.undo': R(DESK, { ok: 409 }),

  'partnerReview.list': R(PARTNER_READERS),
  'partnerReview.get': R(PARTNER_READERS),
  'partnerReview.approve': R(REVIEWERS),
  'partnerReview.reject': R(REVIEWERS),
  'partnerReview.notify': R(REVIEWERS, { prepare: setCompany({ verified: 1 }) }),
  'partnerReview.ban': R(REVIEWERS),
  'partnerChanges.request': R(REVIEWERS, {
    mails: true,
    prepare: setCompany({ verified: 0, isBanned: false, reviewStage: 'received', requestedChanges: null }),
  }),
  'partnerReview.unban': R(REVIEWERS, { prepare: setCompany({ isBanned: true }) }),
  // A new licence waiting (docs/decisions/115-licence-expiry.md); the download finds no file behind
  // the key, so an admin's answer is the handler's 404.
  'partnerReview.renewalLicense': R(PARTNER_READERS, { ok: 404, prepare: renewalWaiting }),
  'partnerReview.acceptLicense': R(REVIEWERS, { prepare: renewalWaiting }),
  'partnerReview.refuseLicense': R(REVIEWERS, { prepare: renewalWaiting }),

  'contentAdmin.listFaqs': R(ADMIN_AND_AUDITOR, { query: '?type=general' }),
  'contentAdmin.createFaq': R(ADMIN, { ok: 201 }),
  'contentAdmin.updateFaq': R(ADMIN),
  'contentAdmin.deleteFaq': R(ADMIN),
  'contentAdmin.reorderFaqs': R(ADMIN),
  'contentAdmin.legal': R(ADMIN_AND_AUDITOR),
  'contentAdmin.saveLegalLinks': R(ADMIN),
  'contentAdmin.saveDocument': R(ADMIN),

  'users.list': R(ADMIN_AND_AUDITOR),
  // The target (the owner) is verified already: 409 means the admin got past the access check.
  'users.resendVerification': R(ADMIN, { ok: 409 }),
  'users.disable': R(ADMIN),
  'users.signOut': R(ADMIN),
  'users.enable': R(ADMIN),
  'users.setRoles': R(ADMIN),
  'users.setRoleOptions': R(ADMIN),
  'users.invitations': R(ADMIN_AND_AUDITOR),
  // The matrix's app has no identity provider: the admin's invitation is the handler's 409.
  'users.invite': R(ADMIN, { ok: 409 }),
  'audit.list': R(ADMIN_AND_AUDITOR),
  'reports.report': R(REPORT_READERS),
  'reports.tickets': R(REPORT_READERS),
  'reports.csv': R(REPORT_READERS),
  'reports.claimsCsv': R(REPORT_READERS),
  'serviceLevels.settings': R(DESK_READERS),
  'serviceLevels.saveCalendar': R(LEADS),
  'serviceLevels.saveTargets': R(LEADS),
  'serviceLevels.claimPeriods': R(DESK_READERS),
  'serviceLevels.saveClaimPeriods': R(LEADS),

  'notifications.preferences': R('user'),
  'privacy.exportData': R('user'),
  // The account page (docs/product.md §2.13). A session id that is nobody's: 404 means the caller got past the access check.
  'account.profile': R('user'),
  'account.sessions': R('user'),
  'account.endSession': R('user', { ok: 404 }),
  'account.endOtherSessions': R('user'),
  'account.setName': R('user'),
  'account.keyboard': R(STAFF),
  'account.setKeyboard': R(STAFF),
  'account.changeEmail': R('user', { ok: 202, mails: true }),
  'auth.confirmEmailChange': R('public', {
    mails: true,
    prepare: async () => {
      emailChangeToken = await issueEmailChangeToken();
    },
  }),
  // A wrong password: 400 means the caller got past the access check (a right one would delete the account).
  'privacy.deletionInfo': R('user'),
  'privacy.deleteAccount': R('user', { ok: 400 }),
  // The owner did not ask to be deleted: 409 means the admin got past the access check.
  'privacy.eraseNow': R(ADMIN, { ok: 409 }),
  'desk.setKeepForRecord': R(ADMIN),
  'desk.mergeTargets': R(DESK_READERS),
  // Merged into itself: an admin gets the handler's refusal (400), everyone else the access check's
  // answer; the fixture ticket stays whole for the other routes.
  'desk.merge': R(DESK, { ok: 400 }),
  'desk.merges': R(DESK_READERS),
  // From the ticket's first message: an admin gets the handler's refusal (400); nothing moves.
  'desk.split': R(DESK, { ok: 400 }),
  // No merge to undo: an admin gets the handler's 404, everyone else the access check's answer.
  'desk.undoMerge': R(DESK, { ok: 404 }),
  'notifications.setPreferences': R('user'),
  'notifications.listMail': R(MAIL_READERS),
  // Reply by email (decision 105). The fixture mail was ignored, not held: 409 means the admin got past the access check.
  'inbound.list': R(MAIL_READERS),
  // The fixture mail, opened to be read; it has no files, so an admin's file answer is the handler's 404.
  'inbound.read': R(HELD_MAIL_READERS),
  'inbound.file': R(HELD_MAIL_READERS, { ok: 404 }),
  'inbound.post': R(HELD_MAIL_READERS, { ok: 409 }),
  'inbound.discard': R(HELD_MAIL_READERS, { ok: 409 }),
  'inbound.wholeMail': R('owner-or-desk'),
  // Side conversations (decision 138): the team's only. The matrix's conversation id names none, so an
  // admin gets the handler's 404 where one is needed; starting one mails the fixture's partner.
  'side.list': R(DESK_READERS),
  'side.start': R(DESK),
  'side.reply': R(DESK, { ok: 404 }),
  'side.close': R(DESK, { ok: 404 }),
  'side.wholeMail': R(DESK_READERS, { ok: 404 }),
  'notifications.retryMail': R(HELD_MAIL_READERS, {
    prepare: async (f) => {
      await db().execute(sql`update mail_outbox set state = 'failed' where id = ${f.mailId}`);
    },
  }),
  // Integrations (decisions 149, 150): the admin's; the auditor reads. The key, endpoint and delivery
  // ids name none, so an admin gets the handler's 404 where one is needed.
  'apiKeys.list': R(ADMIN_AND_AUDITOR),
  'apiKeys.create': R(ADMIN, { ok: 201 }),
  'apiKeys.revoke': R(ADMIN, { ok: 404 }),
  'apiKeys.rotate': R(ADMIN, { ok: 404 }),
  'webhooks.list': R(ADMIN_AND_AUDITOR),
  'webhooks.create': R(ADMIN, { ok: 201 }),
  'webhooks.update': R(ADMIN, { ok: 404 }),
  'webhooks.remove': R(ADMIN, { ok: 404 }),
  'webhooks.secret': R(ADMIN, { ok: 404 }),
  'webhooks.deliveries': R(ADMIN_AND_AUDITOR, { ok: 404 }),
  'webhooks.redeliver': R(ADMIN, { ok: 404 }),
  // The app's routes take a service key only: a session, whoever's, is refused.
  'app.openTicket': R('key'),
  'app.postMessage': R('key'),
  'app.tickets': R('key'),
  'app.ticket': R('key'),
  'app.partners': R('key'),
};

/**
 * Path parameters: a real object of the owner wherever there is one. `userId` is the owner's own
 * account, so the owner's cells also try to make themselves admin (403). An unknown parameter fails.
 */
export const PARAMS: Record<string, (f: Fixtures) => string> = {
  ticketId: (f) => f.ownerTicket.ticketId,
  claimId: () => '00000000-0000-4000-8000-00000000c1a1',
  companyId: (f) => f.companyId,
  faqId: (f) => String(f.faqId),
  slug: () => 'terms',
  token: () => STATUS_TOKEN,
  userId: (f) => f.actors.owner.userId!,
  mailId: (f) => String(f.mailId),
  inboundId: (f) => String(f.inboundId),
  fileIndex: () => '0',
  messageId: (f) => String(f.mailMessageId),
  savedReplyId: () => SAVED_REPLY_ID,
  // No such label: the admin's cell is 404, everyone else's is refused before the handler looks.
  labelId: () => '00000000-0000-4000-8000-0000000001ab',
  mergeId: () => '999999999',
  sideId: () => '00000000-0000-4000-8000-00000000051d',
  bulkId: () => '00000000-0000-4000-8000-0000000b0002',
  attachmentId: (f) => f.attachmentId,
  keyId: () => '00000000-0000-4000-8000-0000000a0001',
  endpointId: () => '00000000-0000-4000-8000-0000000a0002',
  deliveryId: () => '999999999',
  sessionId: () => 'NobodysSessionId000000',
  factorId: () => spare.factorId || '00000000-0000-4000-8000-000000000000',
  '*': () => 'no-such-endpoint',
};

// --- Valid bodies ----------------------------------------------------------------------------------

interface CellRequest {
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** Called with the response (e.g. to remember a changed password). */
  after?: (status: number) => void;
}
type BodyFor = (actor: Actor, f: Fixtures) => CellRequest | Promise<CellRequest>;

const json =
  (value: unknown | ((actor: Actor, f: Fixtures) => unknown)): BodyFor =>
  (actor, f) => ({
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(
      typeof value === 'function' ? (value as (a: Actor, f: Fixtures) => unknown)(actor, f) : value,
    ),
  });

export const MUTATING = (method: string) => !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method);

/**
 * A valid body for every declaration that takes one (JSON or a form), so a refusal comes from
 * authorization, not validation. A declaration that takes none, or whose body may be left out, is
 * sent none.
 */
export const BODIES: Partial<Record<EndpointKey, BodyFor>> = {
  'partners.sendChanges': async () => {
    const { payload, headers } = await encodeForm({}, { bytes: pngOf(512), name: 'licence.png', type: 'image/png' });
    return { payload, headers };
  },
  'partnerChanges.request': json({ reasons: ['license-unreadable'] }),
  'partners.statusLink': json((_a: Actor, f: Fixtures) => ({ email: f.companyEmail })),
  'partners.register': async () => {
    const { payload, headers } = await encodeForm(validCompany());
    return { payload, headers };
  },
  'auth.login': json((_a: Actor, f: Fixtures) => ({
    email: f.loginUser.email,
    password: f.loginUser.password,
  })),
  'secondFactor.passkeySignInOptions': json((_a: Actor, f: Fixtures) => ({
    email: f.loginUser.email,
    password: f.loginUser.password,
  })),
  'secondFactor.confirmTotp': async (actor, f) =>
    json({ factorId: enrolment.factorId, code: await totpAt(MATRIX_TOTP_SECRET) })(actor, f),
  'secondFactor.registerPasskey': (actor, f) =>
    json({ response: softwareAuthenticator().register({ challenge: enrolment.challenge, rp: {} }, enrolment.origin) })(
      actor,
      f,
    ),
  'auth.signup': json(() => ({ email: uniqueEmail('matrix-signup'), password: strongPassword() })),
  'auth.verifyEmail': json((_a: Actor, f: Fixtures) => ({ token: f.verifyToken })),
  'auth.resendVerification': json((_a: Actor, f: Fixtures) => ({ email: f.verifyUser.email })),
  'auth.forgotPassword': json((_a: Actor, f: Fixtures) => ({ email: f.resetUser.email })),
  'auth.resetPassword': json((_a: Actor, f: Fixtures) => ({
    token: f.resetToken,
    password: strongPassword(),
  })),
  'auth.changePassword': (actor) => {
    const newPassword = strongPassword();
    return {
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ currentPassword: actor.password ?? 'not-signed-in-at-all', newPassword }),
      after: (status) => {
        if (status === 200) actor.password = newPassword;
      },
    };
  },
  'support.createTicketCall': json({
    data: { reason: 'General', message: 'Matrix: where is my parcel?' },
  }),
  'support.reply': json({ messageBody: 'Matrix: a reply from the user' }),
  'support.createTicket': json({ reason: 'General', message: 'Matrix: a ticket opened by REST' }),
  'desk.reply': json({ messageBody: 'Matrix: an answer from the team' }),
  'support.rate': json({ good: true, comment: 'Matrix: fine' }),
  'support.seen': json({ messageIds: [1] }),
  'desk.presence': json({ typing: true }),
  'desk.addNote': json({ messageBody: 'Matrix: a note for the team' }),
  'side.start': json({ to: 'partner@example.com', subject: 'Matrix: a bag', messageBody: 'Matrix: have you seen it?' }),
  'side.reply': json({ messageBody: 'Matrix: and now?' }),
  'desk.assign': json({ assignee: 'me' }),
  'desk.setPrivacy': json({ privacy: true }),
  'desk.setDeliveryReference': json({ deliveryReference: 'BGS-1001' }),
  'claims.decide': json({ outcome: 'declined', reason: 'Matrix: not ours to pay', seenVersion: 1 }),
  'claims.waitForSender': json({ seenVersion: 1 }),
  'claims.askTraveller': json({ email: 'traveller@example.nz', statement: 'Matrix: what happened?', seenVersion: 1 }),
  'claims.carrier': json({ seenVersion: 1 }),
  'claims.travellerAnswer': json({ message: 'Matrix: it was whole when I gave it over' }),
  'claims.appeal': json({ reason: 'Matrix: the photo shows the damage' }),
  'desk.applyMacro': json(() => ({ savedReplyId: SAVED_REPLY_ID })),
  'desk.setKeepForRecord': json({ keep: true }),
  'desk.split': async (actor, f) => {
    const [first] = await queryRows<{ id: number }>(
      db(),
      sql`select min(id)::int as id from ticket_messages where ticket_id = ${f.ownerTicket.ticketId}::uuid`,
    );
    return json({ messageId: first!.id, reason: 'General' })(actor, f);
  },
  'desk.merge': json((_a: Actor, f: Fixtures) => ({
    targetTicketId: f.ownerTicket.ticketId,
  })),
  'privacy.deleteAccount': json({ password: 'Matrix-not-the-password-1' }),
  'desk.createSavedReply': json(() => ({
    title: `Matrix saved reply ${createToken().slice(0, 8)}`,
    body: 'Hello {{user.email}}',
  })),
  'desk.updateSavedReply': json({ title: 'Matrix saved reply', body: 'Edited text' }),
  'labels.create': json(() => ({ name: `Matrix ${createToken().slice(0, 8)}` })),
  'labels.rename': json({ name: 'Matrix renamed' }),
  'labels.setTicketLabels': json({ labelIds: [] }),
  // A ticket that does not exist: the admin's answer reports it missing, and no fixture changes.
  'bulk.apply': json({
    action: 'assign',
    tickets: [{ id: '00000000-0000-4000-8000-0000000b0001', version: 0 }],
    assignee: null,
  }),
  'partnerReview.reject': json({ reason: 'Licence unreadable' }),
  'partnerReview.acceptLicense': json({ licenseExpiresOn: '2099-12-31' }),
  'partnerReview.refuseLicense': json({ reason: 'Matrix: unreadable' }),
  'contentAdmin.createFaq': json({ type: 'general', title: 'Matrix question', content: 'Matrix answer' }),
  'contentAdmin.updateFaq': json({
    type: 'sender',
    title: 'Matrix question (edited)',
    content: 'Matrix answer (edited)',
  }),
  // Exactly the current entries of the type, in their current order (anything else is a 409).
  'contentAdmin.reorderFaqs': async (_actor, f) => {
    const rows = await db()
      .select({ id: faqs.id })
      .from(faqs)
      .where(eq(faqs.type, 'traveller'))
      .orderBy(faqs.position, faqs.id);
    return json({ type: 'traveller', ids: rows.map((r) => r.id).reverse() })({ name: 'anonymous' }, f);
  },
  'contentAdmin.saveLegalLinks': json({ terms: '/documents/terms', privacy: '/documents/privacy' }),
  'serviceLevels.saveCalendar': json(DEFAULT_CALENDAR),
  'serviceLevels.saveTargets': json(DEFAULT_TARGETS),
  'serviceLevels.saveClaimPeriods': json(CLAIM_PERIODS),
  'contentAdmin.saveDocument': json({
    title: 'Terms and Conditions',
    body: 'Matrix text.\n\n## Heading\n\nMore text.',
  }),
  'users.setRoles': json({ roles: ['admin'] }),
  'users.setRoleOptions': json({ auditorReadsHeldMail: false }),
  'users.invite': json({ email: 'matrix-invitee@example.nz', roles: ['agent'] }),
  'apiKeys.create': json({ name: 'Matrix key', scopes: ['tickets:read'], expiresInDays: 30 }),
  'apiKeys.rotate': json({ overlapHours: 1 }),
  'webhooks.create': json({ url: 'http://127.0.0.1:9/matrix', events: ['partner.decided'] }),
  'webhooks.update': json({ url: 'http://127.0.0.1:9/matrix', events: ['partner.decided'] }),
  'app.openTicket': json({ userEmail: 'owner@example.nz', reason: 'General', message: 'Matrix' }),
  'app.postMessage': json({ messageBody: 'Matrix' }),
  'notifications.setPreferences': json({ ticketClosed: false }),
  'account.setName': json({ name: 'Aroha' }),
  'account.setKeyboard': json({ keyboardShortcuts: true }),
  'account.changeEmail': (actor) => ({
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      newEmail: uniqueEmail('matrix-new-address'),
      currentPassword: actor.password ?? 'not-signed-in-at-all',
    }),
  }),
  'auth.confirmEmailChange': json(() => ({ token: emailChangeToken })),
};

// --- The rows ---------------------------------------------------------------------------------------

export interface MatrixRow {
  /** The declaration's name (`support.createTicket`), or `METHOD url` for a route of PAGES. */
  name: string;
  method: string;
  url: string;
  /** What it must answer; undefined for a declaration EXPECTED forgot (the table check reports it). */
  spec: RouteSpec | undefined;
  /** A Server-Sent Events stream: fired over a real connection, not `inject`. */
  stream: boolean;
  /** The body a cell sends; undefined for a declaration that needs one BODIES lacks (reported). */
  body: BodyFor | undefined;
}

const NO_BODY: BodyFor = () => ({});

/** Whether a call may leave the body out: no body declared, or one whose schema takes none. */
const takesNoBody = (declaration: EndpointDeclaration) =>
  !declaration.multipart && (!declaration.body || declaration.body.safeParse(undefined).success);

/** Every declaration of the index, then every route of PAGES. */
export function matrixRows(): MatrixRow[] {
  const declared = namedEndpoints().map(([name, declaration]): MatrixRow => ({
    name,
    method: declaration.method,
    url: declaration.path,
    spec: (EXPECTED as Partial<Record<string, RouteSpec>>)[name],
    stream: declaration.stream === true,
    body: BODIES[name] ?? (takesNoBody(declaration) ? NO_BODY : undefined),
  }));
  const pages = Object.entries(PAGES).map(([name, spec]): MatrixRow => {
    const [method, url] = name.split(' ') as [string, string];
    // Only the /api/* catch-all takes writes among them: any JSON will do, it answers 404.
    return { name, method, url, spec, stream: false, body: MUTATING(method) ? json({}) : NO_BODY };
  });
  return [...declared, ...pages];
}

/**
 * What the tables above miss or hold too much of: declarations without an expectation or a body,
 * expectations and bodies of declarations that do not exist. Empty when the matrix can run.
 */
export function tableProblems(): string[] {
  const names = new Set<string>(namedEndpoints().map(([name]) => name));
  const problems: string[] = [];
  for (const row of matrixRows()) {
    if (!row.spec) problems.push(`${row.name} (${row.method} ${row.url}) has no expectation in EXPECTED`);
    if (!row.body) problems.push(`${row.name} (${row.method} ${row.url}) needs a valid body in BODIES`);
  }
  for (const name of Object.keys(EXPECTED)) if (!names.has(name)) problems.push(`EXPECTED.${name} is no declaration`);
  for (const name of Object.keys(BODIES)) if (!names.has(name)) problems.push(`BODIES.${name} is no declaration`);
  return problems;
}

// --- Expected outcome of one cell ----------------------------------------------------------------

type Outcome = { allow: true; status: number } | { allow: false; status: 401 | 403 | 404 };

export function expectedOutcome(spec: RouteSpec, who: PrincipalName): Outcome {
  const allow: Outcome = {
    allow: true,
    status: spec.notTheirs !== undefined && who !== 'admin' ? spec.notTheirs : (spec.ok ?? 200),
  };
  const { guard } = spec;
  if (guard === 'public') return allow;
  // No session (none sent, expired, or its user disabled): 401 before anything else.
  if (who === 'anonymous' || who === 'disabled' || who === 'expired') return { allow: false, status: 401 };
  if (guard === 'key') return { allow: false, status: 403 };
  if (who === 'unverified') return guard === 'user' ? allow : { allow: false, status: 403 };
  if (typeof guard !== 'string') return guard.includes(who as StaffRoleName) ? allow : { allow: false, status: 403 };
  if (guard === 'owner') return who === 'owner' ? allow : { allow: false, status: 404 };
  if (guard === 'owner-or-desk')
    return who === 'owner' || DESK_READERS.includes(who as StaffRoleName) ? allow : { allow: false, status: 404 };
  return allow; // user / verified: any signed-in (verified) user
}

export function concreteUrl(url: string, f: Fixtures): string {
  return url.replace(/:(\w+)|\*/g, (match, name: string | undefined) => {
    const key = name ?? match;
    const value = PARAMS[key];
    if (!value) throw new Error(`authz matrix: no fixture for the path parameter ${key} of ${url}; add it to PARAMS`);
    return encodeURIComponent(value(f));
  });
}
