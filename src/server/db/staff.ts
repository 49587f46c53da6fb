import { type SQL, sql } from 'drizzle-orm';
import { type Permission, rolesWith } from '../../contracts/roles.ts';
import { pgArray } from './sql.ts';

/**
 * SQL that is true when the user (an id expression) is enabled staff holding a role that grants the
 * permission (src/contracts/roles.ts): who may be assigned a ticket, who hears of new ones.
 */
export const holdsPermission = (userId: SQL, permission: Permission): SQL =>
  sql`exists (select 1 from staff_roles sr join users su on su.id = sr.user_id
    where sr.user_id = ${userId} and su.role = 'admin' and su.disabled_at is null
      and sr.role = any(${pgArray(rolesWith(permission))}::text[]))`;
