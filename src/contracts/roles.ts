/**
 * Who on the team may do what (docs/decisions/147-roles-and-permissions.md). A member of staff holds
 * one or more roles; code never asks for a role, only for a permission: each endpoint declaration
 * names the one it needs, pages show what the holder's permissions allow. The roles are data (the
 * `staff_roles` table); what each role grants is this table.
 */

export const STAFF_ROLES = ['admin', 'lead', 'agent', 'partner-reviewer', 'auditor'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const PERMISSIONS = [
  /** The console itself: one's own second factors and settings there. */
  'console',
  /** The inbox, tickets, search, the desk's saved replies, labels and hours as used on a ticket. */
  'tickets.read',
  /** Answering, notes, closing, labels on tickets, assigning to oneself, merging, side conversations. */
  'tickets.write',
  /** Assigning a ticket to a colleague. */
  'tickets.assign-others',
  /** Setting up the desk: saved replies and macros, labels, business hours and response targets. */
  'desk.manage',
  'reports.read',
  'partners.read',
  /** Approving, rejecting, banning and asking changes of partner applications. */
  'partners.review',
  'content.read',
  'content.manage',
  'users.read',
  /** Roles, disabling, signing out and inviting staff. */
  'users.manage',
  'audit.read',
  /** The lists of mail sent and received. */
  'mail.read',
  /** What a held message says, whole (an auditor only when an admin allows it). */
  'mail.held',
  /** Sending failed mail again, posting or discarding held mail. */
  'mail.manage',
  /** Erasure and keeping a ticket for the record. */
  'privacy.manage',
  /** The API keys' list and the webhooks' endpoints and delivery log. */
  'integrations.read',
  /** Making, rotating and revoking API keys; adding and changing webhooks, delivering again. */
  'integrations.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const READS: readonly Permission[] = [
  'console',
  'tickets.read',
  'reports.read',
  'partners.read',
  'content.read',
  'users.read',
  'audit.read',
  'mail.read',
  'integrations.read',
];

export const ROLE_PERMISSIONS: Readonly<Record<StaffRole, readonly Permission[]>> = {
  admin: PERMISSIONS,
  lead: [
    'console',
    'tickets.read',
    'tickets.write',
    'tickets.assign-others',
    'desk.manage',
    'reports.read',
    'mail.read',
    'mail.held',
    'mail.manage',
  ],
  agent: ['console', 'tickets.read', 'tickets.write'],
  'partner-reviewer': ['console', 'partners.read', 'partners.review'],
  auditor: READS,
};

/** What the team's settings add to a role (the admin's choice on /admin/users). */
export interface RoleOptions {
  /** Auditors may read held mail whole. */
  auditorReadsHeldMail: boolean;
}

/** Everything the holder of these roles may do. */
export function permissionsOf(roles: readonly string[], options: RoleOptions): Permission[] {
  const granted = new Set<Permission>();
  for (const role of roles) {
    if (!(STAFF_ROLES as readonly string[]).includes(role)) continue;
    for (const permission of ROLE_PERMISSIONS[role as StaffRole]) granted.add(permission);
    if (role === 'auditor' && options.auditorReadsHeldMail) granted.add('mail.held');
  }
  return PERMISSIONS.filter((p) => granted.has(p));
}

export const ROLE_TEXT: Readonly<Record<StaffRole, { name: string; does: string }>> = {
  admin: { name: 'Admin', does: 'Everything, including staff, roles and erasure.' },
  lead: { name: 'Lead', does: 'The desk, reports, business hours, saved replies and macros; assigns anyone.' },
  agent: { name: 'Agent', does: 'The inbox and tickets: answers, notes, takes tickets, uses saved replies.' },
  'partner-reviewer': { name: 'Partner reviewer', does: 'Partner applications only.' },
  auditor: { name: 'Auditor', does: 'Reads every console page, the audit log and reports; changes nothing.' },
};

/** The roles that grant a permission: what a query over staff asks (who may be assigned, who hears of tickets). */
export const rolesWith = (permission: Permission): StaffRole[] =>
  STAFF_ROLES.filter((role) => ROLE_PERMISSIONS[role].includes(permission));
