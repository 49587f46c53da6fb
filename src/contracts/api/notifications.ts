import { endpoint } from '../endpoint.ts';
import {
  AdminMailListQuerySchema,
  AdminMailListSchema,
  AdminMailParamsSchema,
  AdminMailResultSchema,
  NotificationPreferencesSchema,
  NotificationPreferencesUpdateSchema,
} from '../notifications.schemas.ts';

/** A person's notification mail settings, and the mail outbox as admins see it. */
const ERRORS = [400, 401, 403, 404] as const;

export const notificationsApi = {
  preferences: endpoint({
    method: 'GET',
    path: '/api/account/notifications',
    access: 'user',
    tags: ['account'],
    summary: 'Which notification mails this account gets',
    answers: { 200: NotificationPreferencesSchema },
    errors: ERRORS,
  }),
  setPreferences: endpoint({
    method: 'PUT',
    path: '/api/account/notifications',
    access: 'user',
    tags: ['account'],
    summary: 'Switch notification mails on or off (team mail: admins only)',
    body: NotificationPreferencesUpdateSchema,
    answers: { 200: NotificationPreferencesSchema },
    errors: ERRORS,
  }),
  listMail: endpoint({
    method: 'GET',
    path: '/api/admin/mail',
    access: 'mail.read',
    tags: ['admin'],
    summary: 'The mail outbox, newest first: filter by state, find by recipient',
    query: AdminMailListQuerySchema,
    answers: { 200: AdminMailListSchema },
    errors: ERRORS,
  }),
  retryMail: endpoint({
    method: 'POST',
    path: '/api/admin/mail/:mailId/retry',
    access: 'mail.manage',
    tags: ['admin'],
    summary: 'Queue a failed mail again',
    params: AdminMailParamsSchema,
    answers: { 200: AdminMailResultSchema },
    errors: [...ERRORS, 409],
  }),
} as const;
