import { asc, desc, eq, like, sql } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import { users } from '../../db/schema.ts';
import { likePattern } from '../../db/sql.ts';
import { STAFF_ROLES, type StaffRole } from '../../../contracts/roles.ts';

/** Accounts as the admin console lists them; password hashes are never selected here (AZ-08). */
export interface UserSummaryRow {
  id: string;
  email: string;
  role: 'user' | 'admin';
  roles: StaffRole[];
  emailVerified: boolean;
  disabled: boolean;
  createdAt: Date;
  /** Account deletion (docs/product.md §2.14): asked when, erased when (or to be). */
  deletionRequestedAt?: Date | null;
  eraseAfter?: Date | null;
  erasedAt?: Date | null;
}

const columns = {
  id: users.id,
  email: users.email,
  role: users.role,
  roles: sql<string[]>`array(select r.role from staff_roles r where r.user_id = ${users.id} order by r.role)`,
  emailVerified: sql<boolean>`${users.emailVerifiedAt} is not null`,
  disabled: sql<boolean>`${users.disabledAt} is not null`,
  createdAt: users.createdAt,
  deletionRequestedAt: users.deletionRequestedAt,
  eraseAfter: users.eraseAfter,
  erasedAt: users.erasedAt,
};

const toUser = (r: {
  id: string;
  email: string;
  role: string;
  roles: string[] | null;
  emailVerified: boolean;
  disabled: boolean;
  createdAt: Date;
  deletionRequestedAt: Date | null;
  eraseAfter: Date | null;
  erasedAt: Date | null;
}): UserSummaryRow => ({
  id: r.id,
  email: r.email,
  role: r.role === 'admin' ? 'admin' : 'user',
  // In the order of STAFF_ROLES, whatever order the database gave.
  roles: STAFF_ROLES.filter((role) => (r.roles ?? []).includes(role)),
  emailVerified: Boolean(r.emailVerified),
  disabled: Boolean(r.disabled),
  createdAt: r.createdAt,
  deletionRequestedAt: r.deletionRequestedAt,
  eraseAfter: r.eraseAfter,
  erasedAt: r.erasedAt,
});

export function createAccountsAdminRepository(db: AppDatabase) {
  return {
    /** Newest first (an exact address first of all); `limit + 1` rows tell the caller whether there is another page. */
    async search(filter: { q?: string; offset: number; limit: number }): Promise<UserSummaryRow[]> {
      const q = filter.q?.trim().toLowerCase() || null;
      const rows = await db
        .select(columns)
        .from(users)
        .where(q === null ? undefined : like(users.email, likePattern(q)))
        .orderBy(...(q === null ? [] : [desc(eq(users.email, q))]), desc(users.createdAt), asc(users.id))
        .limit(filter.limit)
        .offset(filter.offset);
      return rows.map(toUser);
    },

    async findById(id: string): Promise<UserSummaryRow | null> {
      const [row] = await db.select(columns).from(users).where(eq(users.id, id));
      return row ? toUser(row) : null;
    },
  };
}

export type AccountsAdminRepository = ReturnType<typeof createAccountsAdminRepository>;
