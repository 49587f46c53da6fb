import { ROLE_TEXT, type StaffRole } from '../../../contracts/roles.ts';
import { INVITATION_DAYS, USER_MESSAGES } from '../../../contracts/users.ts';
import type { Invitation } from '../../../contracts/users.schemas.ts';
import type { Clock } from '../../clock.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { AppError } from '../../errors.ts';
import { renderMail } from '../../mail/layout.ts';
import type { Outbox } from '../../mail/outbox.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import { createOidcRepository } from './oidc.repository.ts';

/**
 * Invitations to the console (docs/decisions/148-staff-sign-in-oidc.md): an admin names an address
 * and its roles; the person gets a mail, and their first sign-in with the company account within
 * seven days makes their staff account with those roles. The invitation and its mail are recorded
 * in one transaction (the outbox sends it), and audited.
 */
export function createInvitationsService(deps: {
  db: AppDatabase;
  accounts: Pick<AccountsRepository, 'findUserByEmail'>;
  outbox: Outbox;
  audit: AuditService;
  clock: Clock;
  site: { companyName: string; publicBaseUrl: string };
  /** The provider's name when staff sign in with one; null: no invitations (nobody could use them). */
  providerName: string | null;
}) {
  const { db, accounts, outbox, audit, clock, site, providerName } = deps;

  const toDto = (row: {
    id: string;
    email: string;
    roles: string[];
    expiresAt: Date;
    acceptedAt: Date | null;
  }): Invitation => ({
    id: row.id,
    email: row.email,
    roles: row.roles as StaffRole[],
    expiresAt: row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt ? row.acceptedAt.toISOString() : null,
  });

  return {
    async list(): Promise<{ available: boolean; invitations: Invitation[] }> {
      const rows = await createOidcRepository(db).listInvitations(clock.now());
      return { available: providerName !== null, invitations: rows.map(toDto) };
    },

    async invite(
      actor: AuditActor,
      input: { email: string; roles: StaffRole[] },
    ): Promise<{ invitation: Invitation; message: string }> {
      if (providerName === null) throw new AppError('ABORTED', USER_MESSAGES.invitationsNeedProvider);
      const existing = await accounts.findUserByEmail(input.email);
      if (existing?.role === 'admin') throw new AppError('ABORTED', USER_MESSAGES.alreadyStaff);
      const expiresAt = new Date(clock.now().getTime() + INVITATION_DAYS * 86_400_000);
      const roleNames = input.roles.map((role) => ROLE_TEXT[role].name).join(', ');
      const id = await inTransaction(db, async (tx) => {
        const invited = await createOidcRepository(tx).invite({ ...input, invitedBy: actor.userId, expiresAt });
        await outbox.enqueue(tx, {
          kind: 'staff-invitation',
          to: input.email,
          subject: `You are invited to the ${site.companyName} console`,
          ...renderMail({
            companyName: site.companyName,
            heading: `Join the ${site.companyName} team`,
            paragraphs: [
              `${actor.email} invited you to the ${site.companyName} support console (${roleNames}).`,
              `Sign in with ${providerName}, using this address (${input.email}).`,
            ],
            action: { label: `Sign in with ${providerName}`, url: `${site.publicBaseUrl}/admin` },
            notes: [
              `The invitation works for ${INVITATION_DAYS} days, once. If you did not expect it, you can ignore this email.`,
            ],
          }),
        });
        return invited;
      });
      outbox.wake();
      await audit.record({
        actor,
        action: 'user.invite',
        targetType: 'user',
        targetId: input.email,
        details: { email: input.email, roles: input.roles },
      });
      const [row] = (await createOidcRepository(db).listInvitations(clock.now())).filter((r) => r.id === id);
      return { invitation: toDto(row!), message: USER_MESSAGES.invited(input.email) };
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
