import { EmailSchema } from './auth.schemas.ts';
import { STAFF_ROLES } from './roles.ts';
import { USER_MESSAGES } from './users.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of users.ts: the console's accounts and invitations as the API checks and
 * answers them. The words and constants are in users.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */

export const AdminUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  /** 'admin': a console account (staff), whatever its roles. */
  role: z.enum(['user', 'admin']),
  /** The staff roles it holds (src/contracts/roles.ts); none for a customer. */
  roles: z.array(z.enum(STAFF_ROLES)),
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
  /** The admin looking at the list. */
  self: z.boolean(),
  /** The owner asked to delete it (docs/product.md §2.14): when, when it is (or was) erased. */
  deletion: z
    .object({ requestedAt: z.string(), eraseAfter: z.string(), erasedAt: z.string().nullable() })
    .nullable()
    .optional(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;
export const UserListQuerySchema = z.object({
  q: z.string().trim().max(254).optional(),
  /** 1-based page of USERS_PAGE_SIZE accounts, newest first. */
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
/** The team's role options (RoleOptions in src/contracts/roles.ts). */
export const RoleOptionsSchema = z.object({ auditorReadsHeldMail: z.boolean() });
export const UserListSchema = z.object({
  users: z.array(AdminUserSchema),
  more: z.boolean(),
  roleOptions: RoleOptionsSchema,
});
export const UserParamsSchema = z.object({ userId: z.uuid({ error: USER_MESSAGES.notFound }) });
/** Every role the account is to hold; none makes it a customer's account again. */
export const UserRolesSchema = z.object({
  roles: z
    .array(z.enum(STAFF_ROLES, { error: 'Choose roles from the list.' }))
    .max(STAFF_ROLES.length)
    .refine((roles) => new Set(roles).size === roles.length, 'Each role once.'),
});
export const UserResultSchema = z.object({ user: AdminUserSchema, message: z.string().optional() });

/** Someone asked to join the team (decision 148): they sign in with the company account within seven days. */
export const InviteSchema = z.object({
  email: EmailSchema,
  roles: z
    .array(z.enum(STAFF_ROLES, { error: 'Choose roles from the list.' }))
    .min(1, 'Choose at least one role.')
    .max(STAFF_ROLES.length)
    .refine((roles) => new Set(roles).size === roles.length, 'Each role once.'),
});
export const InvitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  roles: z.array(z.enum(STAFF_ROLES)),
  expiresAt: z.string(),
  acceptedAt: z.string().nullable(),
});
export type Invitation = z.infer<typeof InvitationSchema>;
export const InvitationListSchema = z.object({
  /** Whether staff can sign in with the company's identity provider at all (invitations need it). */
  available: z.boolean(),
  invitations: z.array(InvitationSchema),
});
export const InvitedSchema = z.object({ invitation: InvitationSchema, message: z.string() });
