import { endpoint } from '../endpoint.ts';
import { CalendarSettingsSchema, ServiceLevelSettingsSchema, TargetsSchema } from '../service-levels.ts';

const ADMIN_ERRORS = [400, 401, 403] as const;

/** Service levels: the business calendar and the targets per reason (docs/decisions/108-service-levels.md). */
export const serviceLevelsApi = {
  settings: endpoint({
    method: 'GET',
    path: '/api/admin/service-levels',
    access: 'tickets.read',
    tags: ['admin'],
    summary: 'The business calendar, the targets per reason, and the holidays and exceptions of the next twelve months',
    answers: { 200: ServiceLevelSettingsSchema },
    errors: ADMIN_ERRORS,
  }),
  saveCalendar: endpoint({
    method: 'PUT',
    path: '/api/admin/service-levels/calendar',
    access: 'desk.manage',
    tags: ['admin'],
    summary:
      'Set the opening hours per weekday (New Zealand time), the anniversary day kept and the dated exceptions; ' +
      'the due times of waiting tickets move at once',
    body: CalendarSettingsSchema,
    answers: { 200: ServiceLevelSettingsSchema },
    errors: ADMIN_ERRORS,
  }),
  saveTargets: endpoint({
    method: 'PUT',
    path: '/api/admin/service-levels/targets',
    access: 'desk.manage',
    tags: ['admin'],
    summary:
      'Set the first response, next response and resolution targets per reason, in business minutes; ' +
      'the due times of waiting tickets move at once',
    body: TargetsSchema,
    answers: { 200: ServiceLevelSettingsSchema },
    errors: ADMIN_ERRORS,
  }),
} as const;
