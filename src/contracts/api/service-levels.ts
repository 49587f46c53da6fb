import { ClaimPeriodsResultSchema, ClaimPeriodsSchema } from '../claims.schemas.ts';
import { endpoint } from '../endpoint.ts';
import { CalendarSettingsSchema, ServiceLevelSettingsSchema, TargetsSchema } from '../service-levels.schemas.ts';

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
  // The claims' periods count working days of this calendar (docs/decisions/153-claim-life.md): set beside it.
  claimPeriods: endpoint({
    method: 'GET',
    path: '/api/admin/claims/periods',
    access: 'tickets.read',
    tags: ['admin'],
    summary: "The periods of a claim's waits, in working days (the defaults until they are set)",
    answers: { 200: ClaimPeriodsResultSchema },
    errors: ADMIN_ERRORS,
  }),
  saveClaimPeriods: endpoint({
    method: 'PUT',
    path: '/api/admin/claims/periods',
    access: 'desk.manage',
    tags: ['admin'],
    summary:
      "Set the periods of a claim's waits in working days: { claimWindowDays 1-60, travellerAnswerDays 1-20, " +
      'decisionDays 1-30, appealWindowDays 1-60, appealDecisionDays 1-30 }; a wait that started before keeps its due time',
    body: ClaimPeriodsSchema,
    answers: { 200: ClaimPeriodsResultSchema },
    errors: ADMIN_ERRORS,
  }),
} as const;
