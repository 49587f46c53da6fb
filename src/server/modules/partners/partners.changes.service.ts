import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  COMPANY_MESSAGES,
  COMPANY_TEXT_FIELDS,
  type CompanyTextField,
  LICENSE_FIELD,
} from '../../../contracts/companies.ts';
import { CompanyRegistrationSchema } from '../../../contracts/companies.schemas.ts';
import {
  CHANGES_MESSAGES,
  changesHistoryText,
  licenseRequired,
  requestedChanges,
} from '../../../contracts/partner-changes.ts';
import type { RequestChanges, RequestedChanges } from '../../../contracts/partner-changes.schemas.ts';
import { COMPANY_REVIEW_MESSAGES, type MailOutcome } from '../../../contracts/partner-review.ts';
import { APPLICATION_STATUS_TEXT, STATUS_TOKEN_PATTERN } from '../../../contracts/partner-status.ts';
import type { Clock } from '../../clock.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import type { Outbox } from '../../mail/outbox.ts';
import { hashToken } from '../../security/tokens.ts';
import type { FileStorage } from '../../storage/storage.ts';
import type { FormPart } from '../../http/form-parts.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import { readApplicationForm, removeLicenseQuietly } from './application-form.ts';
import { companyKeys } from './company-keys.ts';
import { changesRequestedMail } from './partners.changes.mail.ts';
import { type ChangesApplicationRow, createChangesRepository } from './partners.changes.repository.ts';
import type { PartnersRepository } from './partners.repository.ts';
import type { ReviewMailContext } from './partners.review.mail.ts';
import { duplicateError, licenseUrl } from './partners.service.ts';
import { newStatusLink } from './status-links.ts';

/** What the applicant's send did: the changes asked for went back to review, or a renewal's licence waits for an admin. */
export type SentChanges = { kind: 'changes' } | { kind: 'renewal' };

/** The form's field names a request opens ('license' is the licence file's part). */
const formFieldsOf = (changes: RequestedChanges) =>
  new Set<string>(changes.fields.map((field) => (field === 'license' ? LICENSE_FIELD : field)));

/** Stored values as the registration form would send them (null as an empty field). */
function formValuesOf(row: ChangesApplicationRow): Record<CompanyTextField, string> {
  return Object.fromEntries(COMPANY_TEXT_FIELDS.map((field) => [field, row[field] ?? ''])) as Record<
    CompanyTextField,
    string
  >;
}

/**
 * Changes requested (docs/decisions/113-changes-requested.md): the admin's request (reasons, the
 * fields they open, a note), mailed with a new status link in the request's transaction; the
 * applicant's answer on the status page, read through the registration's own form reader, schema and
 * duplicate checks, which puts the application back in review with a new review due date; and an
 * approved partner's new licence (a renewal), kept aside until an admin accepts it.
 */
export function createChangesService(deps: {
  db: AppDatabase;
  partners: PartnersRepository;
  outbox: Outbox;
  mail: ReviewMailContext;
  audit: AuditService;
  storage: FileStorage;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  const { db, outbox, storage, clock, log } = deps;
  const repository = createChangesRepository(db);
  const removeQuietly = (key: string) => removeLicenseQuietly(storage, log, key);

  /** Under the company id's lock, the new file must still be there (the start-up sweep takes files no company holds). */
  async function lockWithFile(repo: ReturnType<typeof createChangesRepository>, id: string, key: string) {
    await repo.lock(id);
    if (!(await storage.exists(key))) throw new AppError('UNAVAILABLE', CHANGES_MESSAGES.sendFailed);
  }

  async function sendRenewal(row: ChangesApplicationRow, license: { key: string }) {
    const stored = await inTransaction(db, async (tx) => {
      const repo = createChangesRepository(tx);
      await lockWithFile(repo, row.id, license.key);
      return repo.storeRenewal(row.id, license.key, clock.now());
    });
    if (!stored) throw new AppError('ABORTED', CHANGES_MESSAGES.nothingDue);
    if (stored.replaced) await removeQuietly(stored.replaced);
  }

  async function sendChanges(
    row: ChangesApplicationRow,
    changes: RequestedChanges,
    values: Partial<Record<CompanyTextField, string>>,
    license: { key: string } | null,
  ) {
    const parsed = CompanyRegistrationSchema.safeParse({ ...formValuesOf(row), ...values });
    if (!parsed.success) {
      const problems: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '_');
        // A stored value the applicant was not asked to change cannot be fixed here: said on the form's own line.
        problems[field in values ? field : '_'] ??= issue.message;
      }
      throw new AppError('INVALID_ARGUMENT', COMPANY_MESSAGES.invalidForm, { fields: problems });
    }
    const keys = companyKeys(parsed.data);
    const conflict = async () => duplicateError(await deps.partners.findConflicts(keys, parsed.data.nzbn, row.id));
    const known = await conflict();
    if (known) throw known;
    const sent = Object.keys(values) as CompanyTextField[];
    const set: Parameters<ReturnType<typeof createChangesRepository>['applyChanges']>[1] = {
      ...Object.fromEntries(sent.map((field) => [field, parsed.data[field]])),
      ...keys,
    };
    const summary = [
      ...(license ? [APPLICATION_STATUS_TEXT.fields.license] : []),
      ...sent.map((field) => APPLICATION_STATUS_TEXT.fields[field]),
    ].join(', ');
    let applied: { id: string } | null;
    try {
      applied = await inTransaction(db, async (tx) => {
        const repo = createChangesRepository(tx);
        if (license) await lockWithFile(repo, row.id, license.key);
        return repo.applyChanges(
          row.id,
          set,
          license ? { key: license.key, url: licenseUrl(row.id) } : null,
          clock.now(),
          summary,
        );
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw (await conflict()) ?? new AppError('ALREADY_EXISTS', COMPANY_MESSAGES.duplicateCompany);
    }
    if (!applied) throw new AppError('ABORTED', CHANGES_MESSAGES.nothingDue);
    // The file it replaced is no one's now.
    if (license && row.licenseKey && row.licenseKey !== license.key) await removeQuietly(row.licenseKey);
  }

  return {
    /** An admin asks for changes: the request, its history line and the applicant's mail commit together. */
    async requestChanges(actor: AuditActor, id: string, request: RequestChanges) {
      const changes = requestedChanges(request);
      const historyText = changesHistoryText(changes);
      const done = await inTransaction(db, async (tx) => {
        const row = await createChangesRepository(tx).requestChanges(id, changes, historyText, actor.userId);
        if (!row) return null;
        let mail: MailOutcome = 'no-address';
        if (row.email) {
          const url = await newStatusLink(tx, id, deps.mail.publicBaseUrl);
          await outbox.enqueue(tx, {
            ...changesRequestedMail(deps.mail, row.email, row.companyName, changes, url),
            kind: 'partner-changes',
          });
          mail = 'queued';
        }
        return { row, mail };
      });
      if (!done) {
        const current = await repository.state(id);
        if (!current) throw new AppError('NOT_FOUND', COMPANY_REVIEW_MESSAGES.notFound);
        throw new AppError(
          'ABORTED',
          current.reviewStage === 'changes_requested' && current.verified === 0 && !current.isBanned
            ? CHANGES_MESSAGES.alreadyRequested
            : CHANGES_MESSAGES.notPending,
        );
      }
      outbox.wake();
      await deps.audit.record({
        actor,
        action: 'company.request-changes',
        targetType: 'company',
        targetId: id,
        details: { companyName: done.row.companyName, reason: historyText, mail: done.mail },
      });
      return { mail: done.mail };
    },

    /** An admin opened the application: a received one is in review from now. */
    async markInReview(actor: AuditActor, id: string): Promise<void> {
      await inTransaction(db, (tx) => createChangesRepository(tx).markInReview(id, actor.userId));
    },

    /**
     * The applicant sends what is due, by their status link (multipart, the registration's rules):
     * the changes asked for, or an approved partner's new licence. Nothing is kept of a refused send.
     */
    async send(token: string, parts: AsyncIterable<FormPart>): Promise<SentChanges> {
      const row = STATUS_TOKEN_PATTERN.test(token) ? await repository.findByTokenHash(hashToken(token)) : null;
      if (!row) throw new AppError('NOT_FOUND', APPLICATION_STATUS_TEXT.notFound);
      const changes = row.requestedChanges as RequestedChanges | null;
      const waitsForChanges = row.verified === 0 && !row.isBanned && row.reviewStage === 'changes_requested';
      const renewal = row.verified === 1 && !row.isBanned;
      if (!(waitsForChanges && changes) && !renewal) throw new AppError('ABORTED', CHANGES_MESSAGES.nothingDue);
      const allowed = changes && waitsForChanges ? formFieldsOf(changes) : new Set([LICENSE_FIELD]);
      const fileId = `${row.id}-${randomBytes(4).toString('hex')}`;
      const form = await readApplicationForm(storage, fileId, parts, {
        allowed,
        notAllowed: CHANGES_MESSAGES.notAsked,
      });
      const stored = form.license.kind === 'stored' ? form.license : null;
      try {
        const needsLicense = changes && waitsForChanges ? licenseRequired(changes) : true;
        if (needsLicense && form.license.kind === 'none')
          form.problems[LICENSE_FIELD] ??= CHANGES_MESSAGES.licenseRequired;
        if (Object.keys(form.problems).length > 0) {
          throw new AppError('INVALID_ARGUMENT', COMPANY_MESSAGES.invalidForm, { fields: form.problems });
        }
        if (changes && waitsForChanges) {
          await sendChanges({ ...row, requestedChanges: changes }, changes, form.values, stored);
          return { kind: 'changes' };
        }
        await sendRenewal({ ...row, requestedChanges: null }, stored!);
        return { kind: 'renewal' };
      } catch (error) {
        if (stored) await removeQuietly(stored.key);
        throw error;
      }
    },
  };
}

export type ChangesService = ReturnType<typeof createChangesService>;
