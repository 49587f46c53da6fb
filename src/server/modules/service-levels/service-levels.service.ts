import type { ClaimPeriods } from '../../../contracts/claims.schemas.ts';
import type {
  CalendarSettings,
  ServiceLevelSettings,
  SpecialDay,
  Targets,
} from '../../../contracts/service-levels.schemas.ts';
import type { Principal } from '../../plugins/access.ts';
import { addDays, BusinessCalendar, newZealandDate } from '../../calendar/business-calendar.ts';
import type { Clock } from '../../clock.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { ServiceLevelsRepository } from './service-levels.repository.ts';

/** The holidays and exceptions from today for a year: what the business-hours page lists. */
export function specialDays(calendar: CalendarSettings, today: string): SpecialDay[] {
  const business = new BusinessCalendar(calendar);
  const days: SpecialDay[] = [];
  const until = addDays(today, 365);
  for (let date = today; date <= until; date = addDays(date, 1)) {
    const day = business.day(date);
    if (day.exception || day.holiday) {
      days.push({ date, name: day.holiday ?? '', spans: day.spans, exception: day.exception });
    }
  }
  // Exceptions further ahead are listed too: the admin set them.
  for (const override of calendar.overrides) {
    if (override.date > until)
      days.push({ date: override.date, name: override.note, spans: override.spans, exception: true });
  }
  return days;
}

export function createServiceLevelsService(deps: {
  repository: ServiceLevelsRepository;
  audit: AuditService;
  clock: Clock;
}) {
  const { repository, audit, clock } = deps;
  const actorOf = (principal: Principal) => ({ userId: principal.userId, email: principal.email });

  async function settings(): Promise<ServiceLevelSettings> {
    const { calendar, targets } = await repository.read();
    return { calendar, targets, specialDays: specialDays(calendar, newZealandDate(clock.now())) };
  }

  return {
    settings,
    ensureIntervals: () => repository.ensureIntervals(clock.now()),

    async saveCalendar(principal: Principal, calendar: CalendarSettings): Promise<ServiceLevelSettings> {
      const sorted = { ...calendar, overrides: [...calendar.overrides].sort((a, b) => a.date.localeCompare(b.date)) };
      const before = await repository.saveCalendar(sorted, principal.userId, clock.now());
      await audit.record({
        actor: actorOf(principal),
        action: 'service-levels.calendar',
        targetType: 'settings',
        targetId: 'business-calendar',
        details: { before, after: sorted },
      });
      return settings();
    },

    /** The periods of a claim's waits, in working days of this calendar (docs/decisions/153-claim-life.md). */
    claimPeriods: async (): Promise<{ periods: ClaimPeriods }> => ({ periods: await repository.claimPeriods() }),

    /** Read by the database when a wait starts, so a wait already running keeps its due time. */
    async saveClaimPeriods(principal: Principal, periods: ClaimPeriods): Promise<{ periods: ClaimPeriods }> {
      const before = await repository.saveClaimPeriods(periods);
      await audit.record({
        actor: actorOf(principal),
        action: 'claims.periods',
        targetType: 'settings',
        targetId: 'claim-periods',
        details: { before, after: periods },
      });
      return { periods: await repository.claimPeriods() };
    },

    async saveTargets(principal: Principal, targets: Targets): Promise<ServiceLevelSettings> {
      const before = await repository.saveTargets(targets);
      await audit.record({
        actor: actorOf(principal),
        action: 'service-levels.targets',
        targetType: 'settings',
        targetId: 'service-targets',
        details: { before, after: targets },
      });
      return settings();
    },
  };
}

export type ServiceLevelsService = ReturnType<typeof createServiceLevelsService>;
