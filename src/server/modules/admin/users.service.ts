import { type AdminUser, USER_MESSAGES, USERS_PAGE_SIZE } from '../../../contracts/admin.ts';
import { AppError } from '../../errors.ts';
import type { AccountAdmin } from '../accounts/accounts.admin.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import type { AuditActor, AuditService } from './audit.service.ts';
import type { UserSummaryRow, UsersRepository } from './users.repository.ts';

/**
 * The Users screen: find accounts, resend verification, disable or enable, make or remove admin.
 * The account rules themselves (ending sessions and live streams, password rules, mail limits) are
 * the accounts module's, reached through its admin helpers and service; this adds who may do what
 * to whom, and the audit trail. Nobody changes their own role or disables themselves, so the
 * console always keeps at least the admin using it.
 */
export function createUsersAdminService(deps: {
  repository: UsersRepository;
  accountAdmin: AccountAdmin;
  accounts: Pick<AccountsService, 'resendVerification'>;
  audit: AuditService;
}) {
  const { repository, accountAdmin, accounts, audit } = deps;

  const toDto = (row: UserSummaryRow, actor: AuditActor): AdminUser => ({
    id: row.id,
    email: row.email,
    role: row.role,
    emailVerified: row.emailVerified,
    disabled: row.disabled,
    createdAt: row.createdAt.toISOString(),
    self: row.id === actor.userId,
  });

  async function getUser(userId: string): Promise<UserSummaryRow> {
    const user = await repository.findById(userId);
    if (!user) throw new AppError('NOT_FOUND', USER_MESSAGES.notFound);
    return user;
  }

  return {
    async list(actor: AuditActor, filter: { q?: string; page: number }): Promise<{ users: AdminUser[]; more: boolean }> {
      const rows = await repository.search({ q: filter.q, offset: (filter.page - 1) * USERS_PAGE_SIZE, limit: USERS_PAGE_SIZE + 1 });
      return { users: rows.slice(0, USERS_PAGE_SIZE).map((row) => toDto(row, actor)), more: rows.length > USERS_PAGE_SIZE };
    },

    /** The same mail, limits and token rules as "send a new verification email" on the login screen. */
    async resendVerification(actor: AuditActor, userId: string, ip: string): Promise<{ user: AdminUser; message: string }> {
      const user = await getUser(userId);
      if (user.emailVerified) throw new AppError('ABORTED', USER_MESSAGES.alreadyVerified);
      if (user.disabled) throw new AppError('ABORTED', USER_MESSAGES.disabled);
      await accounts.resendVerification({ email: user.email, ip });
      await audit.record({ actor, action: 'user.resend-verification', targetType: 'user', targetId: user.id, details: { email: user.email } });
      return { user: toDto(user, actor), message: USER_MESSAGES.verificationSent(user.email) };
    },

    /** Ends every session of the account, and with them its open live streams (sessions.ended). */
    async disable(actor: AuditActor, userId: string): Promise<{ user: AdminUser }> {
      if (userId === actor.userId) throw new AppError('PERMISSION_DENIED', USER_MESSAGES.notYourself);
      const user = await getUser(userId);
      const { endedSessions } = await accountAdmin.disableUser({ email: user.email });
      await audit.record({ actor, action: 'user.disable', targetType: 'user', targetId: user.id, details: { email: user.email, endedSessions } });
      return { user: toDto(await getUser(userId), actor) };
    },

    async enable(actor: AuditActor, userId: string): Promise<{ user: AdminUser }> {
      const user = await getUser(userId);
      await accountAdmin.enableUser({ email: user.email });
      await audit.record({ actor, action: 'user.enable', targetType: 'user', targetId: user.id, details: { email: user.email } });
      return { user: toDto(await getUser(userId), actor) };
    },

    async setRole(actor: AuditActor, userId: string, role: 'user' | 'admin'): Promise<{ user: AdminUser }> {
      if (userId === actor.userId) throw new AppError('PERMISSION_DENIED', USER_MESSAGES.notYourOwnRole);
      const user = await getUser(userId);
      if (user.role !== role) {
        // The repository tells live streams at once, so a removed admin loses the inbox stream now.
        await accountAdmin.setRole({ email: user.email, role });
        await audit.record({ actor, action: 'user.role', targetType: 'user', targetId: user.id, details: { email: user.email, from: user.role, to: role } });
      }
      return { user: toDto(await getUser(userId), actor) };
    },
  };
}

export type UsersAdminService = ReturnType<typeof createUsersAdminService>;
