import { z } from '../../../contracts/zod.ts';
import { DELETION_TEXT, shownEmail } from '../../../contracts/account-deletion.ts';
import { USER_MESSAGES, USERS_PAGE_SIZE } from '../../../contracts/users.ts';
import type { AdminUser } from '../../../contracts/users.schemas.ts';
import { EmailSchema, NewPasswordSchema, type User } from '../../../contracts/auth.schemas.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { AccountsAdminRepository, UserSummaryRow } from './accounts.admin.repository.ts';
import type { AccountsRepository, Role, UserRow } from './accounts.repository.ts';
import { type AccountsService, toUserDto } from './accounts.service.ts';
import { type RoleOptions, STAFF_ROLES, type StaffRole } from '../../../contracts/roles.ts';
import { findPasswordProblem, hashPassword } from './passwords.ts';

/**
 * Administration of accounts (docs/design.md §4b): what the command line does, and what the admin console's
 * service below builds on.
 * The same rules as sign-up apply to passwords chosen here; there is no default account anywhere
 * (AUTH-06): the first admin is whoever an operator creates with `create-user --admin`.
 */
function parse<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const message = result.error.issues[0]?.message ?? 'Invalid value';
    throw new AppError('INVALID_ARGUMENT', `${field}: ${message}`, { fields: { [field]: message } });
  }
  return result.data;
}

async function checkedHash(password: unknown, email: string): Promise<string> {
  const value = parse(NewPasswordSchema, password, 'password');
  const problem = findPasswordProblem(value, email);
  if (problem) throw new AppError('INVALID_ARGUMENT', `password: ${problem}`, { fields: { password: problem } });
  return hashPassword(value);
}

const dto = (row: UserRow) => toUserDto({ ...row, emailVerified: row.emailVerifiedAt !== null });

export function createAccountAdmin(repo: AccountsRepository) {
  async function requireUser(rawEmail: unknown): Promise<UserRow> {
    const email = parse(EmailSchema, rawEmail, 'email');
    const user = await repo.findUserByEmail(email);
    if (!user) throw new AppError('NOT_FOUND', `There is no account for ${email}.`);
    return user;
  }

  return {
    async createUser(input: { email: unknown; password: unknown; role?: Role; verified?: boolean }): Promise<User> {
      return this.insertChecked(await this.checkNewAccount(input), {
        role: input.role ?? 'user',
        verified: input.verified ?? true,
      });
    },

    /** Checks a new account's email and password (the sign-up rules) and hashes the password. */
    async checkNewAccount(input: {
      email: unknown;
      password: unknown;
    }): Promise<{ email: string; passwordHash: string }> {
      const email = parse(EmailSchema, input.email, 'email');
      return { email, passwordHash: await checkedHash(input.password, email) };
    },

    /** Inserts an account that `checkNewAccount` accepted. */
    async insertChecked(
      account: { email: string; passwordHash: string },
      options: { role: Role; verified: boolean },
    ): Promise<User> {
      const row = await repo.insertUser({ ...account, ...options });
      if (!row) throw new AppError('ALREADY_EXISTS', `An account for ${account.email} already exists.`);
      return dto(row);
    },

    /** Sets a password and ends every session of the account. */
    async setPassword(input: { email: unknown; password: unknown }): Promise<{ user: User; endedSessions: number }> {
      const user = await requireUser(input.email);
      await repo.setPasswordHash(user.id, await checkedHash(input.password, user.email));
      const endedSessions = await repo.deleteSessionsOfUser(user.id);
      return { user: dto(user), endedSessions };
    },

    async verifyEmail(input: { email: unknown }): Promise<User> {
      const user = await requireUser(input.email);
      await repo.markEmailVerified(user.id);
      return dto((await repo.findUserById(user.id))!);
    },

    async setRole(input: { email: unknown; role: unknown }): Promise<User> {
      const role = parse(z.enum(['user', 'admin'], { error: 'must be user or admin' }), input.role, 'role');
      const user = await requireUser(input.email);
      await repo.setRole(user.id, role);
      return dto((await repo.findUserById(user.id))!);
    },

    /** Disables an account and ends every one of its sessions at once (SES-08). */
    async disableUser(input: { email: unknown }): Promise<{ user: User; endedSessions: number }> {
      const user = await requireUser(input.email);
      await repo.setDisabled(user.id, true);
      const endedSessions = await repo.deleteSessionsOfUser(user.id);
      return { user: dto(user), endedSessions };
    },

    /** Ends every session of an account at once (and its live streams); how many ended. */
    async endSessions(input: { email: unknown }): Promise<number> {
      const user = await requireUser(input.email);
      return repo.deleteSessionsOfUser(user.id);
    },

    async enableUser(input: { email: unknown }): Promise<User> {
      const user = await requireUser(input.email);
      if (!(await repo.setDisabled(user.id, false))) throw new AppError('ABORTED', DELETION_TEXT.cannotEnable);
      return dto(user);
    },
  };
}

export type AccountAdmin = ReturnType<typeof createAccountAdmin>;

/**
 * The Users screen: find accounts, resend verification, disable or enable, make or remove admin.
 * The account rules themselves (ending sessions and live streams, password rules, mail limits) are
 * those of createAccountAdmin above and of the accounts service; this adds who may do what to whom,
 * and the audit trail. Nobody disables themselves, and the last enabled admin keeps the admin role,
 * so the console always keeps an admin.
 */
export function createAccountsAdminService(deps: {
  repository: AccountsAdminRepository;
  accountsRepository: Pick<AccountsRepository, 'setRoles' | 'roleOptions' | 'saveRoleOptions'>;
  accountAdmin: AccountAdmin;
  accounts: Pick<AccountsService, 'resendVerification'>;
  audit: AuditService;
}) {
  const { repository, accountsRepository, accountAdmin, accounts, audit } = deps;

  const toDto = (row: UserSummaryRow, actor: AuditActor): AdminUser => ({
    id: row.id,
    email: shownEmail(row.email),
    role: row.role,
    roles: row.roles,
    emailVerified: row.emailVerified,
    disabled: row.disabled,
    createdAt: row.createdAt.toISOString(),
    self: row.id === actor.userId,
    deletion:
      row.deletionRequestedAt && row.eraseAfter
        ? {
            requestedAt: row.deletionRequestedAt.toISOString(),
            eraseAfter: row.eraseAfter.toISOString(),
            erasedAt: row.erasedAt ? row.erasedAt.toISOString() : null,
          }
        : null,
  });

  async function getUser(userId: string): Promise<UserSummaryRow> {
    const user = await repository.findById(userId);
    if (!user) throw new AppError('NOT_FOUND', USER_MESSAGES.notFound);
    return user;
  }

  return {
    async list(
      actor: AuditActor,
      filter: { q?: string; page: number },
    ): Promise<{ users: AdminUser[]; more: boolean }> {
      const rows = await repository.search({
        q: filter.q,
        offset: (filter.page - 1) * USERS_PAGE_SIZE,
        limit: USERS_PAGE_SIZE + 1,
      });
      return {
        users: rows.slice(0, USERS_PAGE_SIZE).map((row) => toDto(row, actor)),
        more: rows.length > USERS_PAGE_SIZE,
      };
    },

    /** The same mail, limits and token rules as "send a new verification email" on the login screen. */
    async resendVerification(
      actor: AuditActor,
      userId: string,
      ip: string,
    ): Promise<{ user: AdminUser; message: string }> {
      const user = await getUser(userId);
      if (user.emailVerified) throw new AppError('ABORTED', USER_MESSAGES.alreadyVerified);
      if (user.disabled) throw new AppError('ABORTED', USER_MESSAGES.disabled);
      await accounts.resendVerification({ email: user.email, ip });
      await audit.record({
        actor,
        action: 'user.resend-verification',
        targetType: 'user',
        targetId: user.id,
        details: { email: user.email },
      });
      return { user: toDto(user, actor), message: USER_MESSAGES.verificationSent(user.email) };
    },

    /** Ends every session of the account, and with them its open live streams (sessions.ended). */
    async disable(actor: AuditActor, userId: string): Promise<{ user: AdminUser }> {
      if (userId === actor.userId) throw new AppError('PERMISSION_DENIED', USER_MESSAGES.notYourself);
      const user = await getUser(userId);
      const { endedSessions } = await accountAdmin.disableUser({ email: user.email });
      await audit.record({
        actor,
        action: 'user.disable',
        targetType: 'user',
        targetId: user.id,
        details: { email: user.email, endedSessions },
      });
      return { user: toDto(await getUser(userId), actor) };
    },

    /** Signs an account out everywhere (a lost laptop, someone leaving): its sessions and live streams end now. */
    async signOut(actor: AuditActor, userId: string): Promise<{ user: AdminUser; message: string }> {
      if (userId === actor.userId) throw new AppError('PERMISSION_DENIED', USER_MESSAGES.notYourSessions);
      const user = await getUser(userId);
      const endedSessions = await accountAdmin.endSessions({ email: user.email });
      await audit.record({
        actor,
        action: 'user.sign-out',
        targetType: 'user',
        targetId: user.id,
        details: { email: user.email, endedSessions },
      });
      return { user: toDto(user, actor), message: USER_MESSAGES.signedOut(user.email, endedSessions) };
    },

    async enable(actor: AuditActor, userId: string): Promise<{ user: AdminUser }> {
      const user = await getUser(userId);
      if (user.deletionRequestedAt) throw new AppError('ABORTED', DELETION_TEXT.cannotEnable);
      await accountAdmin.enableUser({ email: user.email });
      await audit.record({
        actor,
        action: 'user.enable',
        targetType: 'user',
        targetId: user.id,
        details: { email: user.email },
      });
      return { user: toDto(await getUser(userId), actor) };
    },

    /**
     * The roles an account holds, exactly these (none: a customer's account). Its next request
     * is decided by them, and its live streams re-check now (the repository tells them). The last
     * enabled admin keeps the admin role: the change is refused, and nothing changes.
     */
    async setRoles(
      actor: AuditActor,
      userId: string,
      roles: readonly StaffRole[],
    ): Promise<{ user: AdminUser; message: string }> {
      const user = await getUser(userId);
      const wanted = STAFF_ROLES.filter((role) => roles.includes(role));
      if (wanted.join() !== user.roles.join()) {
        if (!(await accountsRepository.setRoles(user.id, wanted)))
          throw new AppError('PERMISSION_DENIED', USER_MESSAGES.lastAdmin);
        await audit.record({
          actor,
          action: 'user.roles',
          targetType: 'user',
          targetId: user.id,
          details: { email: user.email, from: user.roles, to: wanted },
        });
      }
      return { user: toDto(await getUser(userId), actor), message: USER_MESSAGES.rolesSaved(user.email) };
    },

    async roleOptions(): Promise<RoleOptions> {
      return accountsRepository.roleOptions();
    },

    async setRoleOptions(actor: AuditActor, options: RoleOptions): Promise<RoleOptions> {
      const before = await accountsRepository.roleOptions();
      if (before.auditorReadsHeldMail !== options.auditorReadsHeldMail) {
        await accountsRepository.saveRoleOptions(options);
        await audit.record({
          actor,
          action: 'roles.options',
          targetType: 'settings',
          targetId: 'staff/role-options',
          details: { auditorReadsHeldMail: options.auditorReadsHeldMail },
        });
      }
      return options;
    },
  };
}

export type AccountsAdminService = ReturnType<typeof createAccountsAdminService>;
