import { sql } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import { queryRows, likePattern } from '../../db/sql.ts';

/** Accounts as the admin console lists them; password hashes are never selected here (AZ-08). */
export interface UserSummaryRow {
  id: string;
  email: string;
  role: 'user' | 'admin';
  emailVerified: boolean;
  disabled: boolean;
  createdAt: Date;
}

type RawUser = {
  id: string;
  email: string;
  role: string;
  email_verified: boolean;
  disabled: boolean;
  created_at: unknown;
};
const toUser = (r: RawUser): UserSummaryRow => ({
  id: r.id,
  email: r.email,
  role: r.role === 'admin' ? 'admin' : 'user',
  emailVerified: r.email_verified,
  disabled: r.disabled,
  createdAt: new Date(r.created_at as string),
});

const COLUMNS = sql`id, email, role, email_verified_at is not null as email_verified, disabled_at is not null as disabled, created_at`;

export function createAccountsAdminRepository(db: AppDatabase) {
  return {
    /** Newest first; `limit + 1` rows tell the caller whether there is another page. */
    async search(filter: { q?: string; offset: number; limit: number }): Promise<UserSummaryRow[]> {
      const q = filter.q?.trim().toLowerCase() || null;
      const rows = await queryRows<RawUser>(
        db,
        sql`select ${COLUMNS} from users
            where (${q}::text is null or email like ${q ? likePattern(q) : null}::text)
            order by (email = ${q}::text) desc, created_at desc, id
            limit ${filter.limit} offset ${filter.offset}`,
      );
      return rows.map(toUser);
    },

    async findById(id: string): Promise<UserSummaryRow | null> {
      const [row] = await queryRows<RawUser>(db, sql`select ${COLUMNS} from users where id = ${id}`);
      return row ? toUser(row) : null;
    },
  };
}

export type AccountsAdminRepository = ReturnType<typeof createAccountsAdminRepository>;
