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
import { type Actor, db, type Fixtures, type PrincipalName, publicBaseUrl, SAVED_REPLY_ID } from './authz-world.ts';

// --- What each route must answer -----------------------------------------------------------------

/**
 * `owner`: a verified user's route about one of their own objects (another user gets 404, like a
 * missing object). `owner-or-admin`: the same, but admins may use it too (the live ticket stream).
 */
type Guard = 'public' | 'user' | 'verified' | 'owner' | 'owner-or-admin' | 'admin';
export const DECLARED: Record<Guard, string> = {
  public: 'public',
  user: 'user',
  verified: 'verified',
  owner: 'verified',
  'owner-or-admin': 'verified',
  admin: 'admin',
};

export interface RouteSpec {
  guard: Guard;
  /** The status every allowed principal gets (200 unless given). */
  ok?: number;
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
  'partnerReview.license': R('admin'),
  // The matrix company's licence is an image: an image has no PDF preview (decision 130).
  'partnerReview.licensePreview': R('admin', { ok: 404 }),

  'auth.login': R('public'),
  // The matrix's login user has no passkey: after the right password, a field error for everyone.
  'secondFactor.passkeySignInOptions': R('public', { ok: 400 }),
  // Admins' second factor (docs/product.md §2.15): the admin actor passed it; everyone else is refused.
  'secondFactor.status': R('admin'),
  'secondFactor.beginTotp': R('admin'),
  'secondFactor.confirmTotp': R('admin', { prepare: pendingTotp }),
  'secondFactor.passkeyRegistrationOptions': R('admin'),
  'secondFactor.registerPasskey': R('admin', { prepare: passkeyChallenge }),
  'secondFactor.removeFactor': R('admin', { prepare: spareFactor }),
  'secondFactor.renewRecoveryCodes': R('admin'),
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
  'support.messagesStream': R('owner-or-admin'),
  'support.reply': R('owner'),
  'support.createTicket': R('verified', { ok: 201 }),
  // Files on messages (docs/product.md §2.11): the ticket's owner and admins only.
  'attachments.file': R('owner-or-admin'),
  'attachments.thumbnail': R('owner-or-admin'),

  'desk.listTickets': R('admin'),
  'desk.ticketsStream': R('admin'),
  'desk.ticket': R('admin'),
  'desk.reply': R('admin'),
  'desk.presence': R('admin'),
  'desk.close': R('admin'),
  'desk.reopen': R('admin', {
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
  'desk.addNote': R('admin'),
  'desk.assign': R('admin'),
  'desk.setPrivacy': R('admin'),
  // The fixture's saved reply has no actions and no reply is given: nothing to do (409), nothing changed.
  'desk.applyMacro': R('admin', { ok: 409 }),
  'desk.agents': R('admin'),
  'desk.figures': R('admin'),
  'desk.firstSteps': R('admin'),
  'desk.search': R('admin', { query: '?q=parcel' }),
  'desk.savedReplies': R('admin'),
  'desk.createSavedReply': R('admin'),
  'desk.updateSavedReply': R('admin'),
  'desk.deleteSavedReply': R('admin'),
  'labels.list': R('admin'),
  'labels.create': R('admin'),
  'labels.rename': R('admin', { ok: 404 }),
  'labels.remove': R('admin', { ok: 404 }),
  'labels.setTicketLabels': R('admin'),
  'bulk.apply': R('admin'),
  // Nobody's bulk action: the admin's cell is 409 (nothing to undo), everyone else's is refused first.
  'bulk.undo': R('admin', { ok: 409 }),

  'partnerReview.list': R('admin'),
  'partnerReview.get': R('admin'),
  'partnerReview.approve': R('admin'),
  'partnerReview.reject': R('admin'),
  'partnerReview.notify': R('admin', { prepare: setCompany({ verified: 1 }) }),
  'partnerReview.ban': R('admin'),
  'partnerChanges.request': R('admin', {
    mails: true,
    prepare: setCompany({ verified: 0, isBanned: false, reviewStage: 'received', requestedChanges: null }),
  }),
  'partnerReview.unban': R('admin', { prepare: setCompany({ isBanned: true }) }),
  // A new licence waiting (docs/decisions/115-licence-expiry.md); the download finds no file behind
  // the key, so an admin's answer is the handler's 404.
  'partnerReview.renewalLicense': R('admin', { ok: 404, prepare: renewalWaiting }),
  'partnerReview.acceptLicense': R('admin', { prepare: renewalWaiting }),
  'partnerReview.refuseLicense': R('admin', { prepare: renewalWaiting }),

  'contentAdmin.listFaqs': R('admin', { query: '?type=general' }),
  'contentAdmin.createFaq': R('admin', { ok: 201 }),
  'contentAdmin.updateFaq': R('admin'),
  'contentAdmin.deleteFaq': R('admin'),
  'contentAdmin.reorderFaqs': R('admin'),
  'contentAdmin.legal': R('admin'),
  'contentAdmin.saveLegalLinks': R('admin'),
  'contentAdmin.saveDocument': R('admin'),

  'users.list': R('admin'),
  // The target (the owner) is verified already: 409 means the admin got past the access check.
  'users.resendVerification': R('admin', { ok: 409 }),
  'users.disable': R('admin'),
  'users.signOut': R('admin'),
  'users.enable': R('admin'),
  'users.setRole': R('admin'),
  'audit.list': R('admin'),
  'reports.report': R('admin'),
  'reports.tickets': R('admin'),
  'reports.csv': R('admin'),
  'serviceLevels.settings': R('admin'),
  'serviceLevels.saveCalendar': R('admin'),
  'serviceLevels.saveTargets': R('admin'),

  'notifications.preferences': R('user'),
  'privacy.exportData': R('user'),
  // The account page (docs/product.md §2.13). A session id that is nobody's: 404 means the caller got past the access check.
  'account.profile': R('user'),
  'account.sessions': R('user'),
  'account.endSession': R('user', { ok: 404 }),
  'account.endOtherSessions': R('user'),
  'account.setName': R('user'),
  'account.keyboard': R('admin'),
  'account.setKeyboard': R('admin'),
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
  'privacy.eraseNow': R('admin', { ok: 409 }),
  'desk.setKeepForRecord': R('admin'),
  'desk.mergeTargets': R('admin'),
  // Merged into itself: an admin gets the handler's refusal (400), everyone else the access check's
  // answer; the fixture ticket stays whole for the other routes.
  'desk.merge': R('admin', { ok: 400 }),
  'desk.merges': R('admin'),
  // From the ticket's first message: an admin gets the handler's refusal (400); nothing moves.
  'desk.split': R('admin', { ok: 400 }),
  // No merge to undo: an admin gets the handler's 404, everyone else the access check's answer.
  'desk.undoMerge': R('admin', { ok: 404 }),
  'notifications.setPreferences': R('user'),
  'notifications.listMail': R('admin'),
  // Reply by email (decision 105). The fixture mail was ignored, not held: 409 means the admin got past the access check.
  'inbound.list': R('admin'),
  // The fixture mail, opened to be read; it has no files, so an admin's file answer is the handler's 404.
  'inbound.read': R('admin'),
  'inbound.file': R('admin', { ok: 404 }),
  'inbound.post': R('admin', { ok: 409 }),
  'inbound.discard': R('admin', { ok: 409 }),
  'inbound.wholeMail': R('owner-or-admin'),
  // Side conversations (decision 138): the team's only. The matrix's conversation id names none, so an
  // admin gets the handler's 404 where one is needed; starting one mails the fixture's partner.
  'side.list': R('admin'),
  'side.start': R('admin'),
  'side.reply': R('admin', { ok: 404 }),
  'side.close': R('admin', { ok: 404 }),
  'side.wholeMail': R('admin', { ok: 404 }),
  'notifications.retryMail': R('admin', {
    prepare: async (f) => {
      await db().execute(sql`update mail_outbox set state = 'failed' where id = ${f.mailId}`);
    },
  }),
};

/**
 * Path parameters: a real object of the owner wherever there is one. `userId` is the owner's own
 * account, so the owner's cells also try to make themselves admin (403). An unknown parameter fails.
 */
export const PARAMS: Record<string, (f: Fixtures) => string> = {
  ticketId: (f) => f.ownerTicket.ticketId,
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
  'contentAdmin.saveDocument': json({
    title: 'Terms and Conditions',
    body: 'Matrix text.\n\n## Heading\n\nMore text.',
  }),
  'users.setRole': json({ role: 'admin' }),
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
  const allow: Outcome = { allow: true, status: spec.ok ?? 200 };
  const { guard } = spec;
  if (guard === 'public') return allow;
  // No session (none sent, expired, or its user disabled): 401 before anything else.
  if (who === 'anonymous' || who === 'disabled' || who === 'expired') return { allow: false, status: 401 };
  if (who === 'unverified') return guard === 'user' ? allow : { allow: false, status: 403 };
  if (guard === 'admin') return who === 'admin' ? allow : { allow: false, status: 403 };
  if (guard === 'owner') return who === 'owner' ? allow : { allow: false, status: 404 };
  if (guard === 'owner-or-admin') return who === 'owner' || who === 'admin' ? allow : { allow: false, status: 404 };
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
