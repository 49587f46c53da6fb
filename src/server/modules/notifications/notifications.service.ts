import { MAIL_TEXT, NOTIFICATION_SETTINGS, NOTIFICATION_TEXT } from '../../../contracts/notifications.ts';
import type { NotificationPreferences } from '../../../contracts/notifications.schemas.ts';
import { AppError } from '../../errors.ts';
import { can, type Principal } from '../../plugins/access.ts';
import { hashToken, isTokenShaped } from '../../security/tokens.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { MailState, NotificationsRepository, OptOutKind } from './notifications.repository.ts';

/** Switching notification mail on and off (signed in, or by an unsubscribe link), and the admin view of the outbox. */
export function createNotificationsService(deps: {
  repository: NotificationsRepository;
  audit: AuditService;
  retryHours: number;
}) {
  const { repository, audit } = deps;
  const settingsFor = (principal: Pick<Principal, 'permissions'>) =>
    NOTIFICATION_SETTINGS.filter((s) => !s.adminOnly || can(principal, 'tickets.write'));

  async function preferences(principal: Pick<Principal, 'userId' | 'permissions'>): Promise<NotificationPreferences> {
    const off = await repository.optOutsOf(principal.userId);
    const result: NotificationPreferences = {
      ticketReplies: !off.has('ticket-replies'),
      ticketClosed: !off.has('ticket-closed'),
    };
    if (can(principal, 'tickets.write')) result.team = !off.has('team');
    return result;
  }

  /** The person and kind a link names; null for a link we never made. */
  async function findLink(token: string) {
    if (!isTokenShaped(token)) return null;
    const found = await repository.findUnsubscribeToken(hashToken(token));
    if (!found) return null;
    const setting = NOTIFICATION_SETTINGS.find((s) => s.kind === found.kind);
    return { ...found, label: setting?.label ?? found.kind };
  }

  return {
    preferences,

    async setPreferences(
      principal: Pick<Principal, 'userId' | 'permissions'>,
      changes: Partial<Record<'ticketReplies' | 'ticketClosed' | 'team', boolean>>,
    ) {
      if (changes.team !== undefined && !can(principal, 'tickets.write')) {
        throw new AppError('PERMISSION_DENIED', NOTIFICATION_TEXT.teamOnlyForAdmins, {
          fields: { team: NOTIFICATION_TEXT.teamOnlyForAdmins },
        });
      }
      for (const setting of settingsFor(principal)) {
        const on = changes[setting.key];
        if (on !== undefined) await repository.setOptOut(principal.userId, setting.kind as OptOutKind, !on);
      }
      return preferences(principal);
    },

    /** What an unsubscribe link would switch off (the page asks before it does). */
    async describeUnsubscribe(token: string): Promise<{ email: string; label: string } | null> {
      const link = await findLink(token);
      return link ? { email: link.email, label: link.label } : null;
    },

    /** Switches off the kind of mail a link names, for the person it names: no session needed (RFC 8058). */
    async unsubscribe(token: string): Promise<{ email: string; label: string } | null> {
      const link = await findLink(token);
      if (!link) return null;
      await repository.setOptOut(link.userId, link.kind, true);
      return { email: link.email, label: link.label };
    },

    /** The outbox by state, and when the oldest mail still waiting to be sent was recorded (metrics). */
    async mailQueueStats() {
      const { oldestQueuedAt, ...counts } = await repository.countByState();
      return { counts, oldestWaitingAt: oldestQueuedAt };
    },

    async listMail(filter: { state?: MailState; q?: string }) {
      const [mails, counts] = await Promise.all([
        repository.listMail({ ...filter, limit: 200 }),
        repository.countByState(),
      ]);
      return { mails, counts };
    },

    async retryMail(actor: AuditActor, id: number) {
      const mail = await repository.retry(id, deps.retryHours);
      if (!mail) {
        const existing = await repository.findMail(id);
        throw existing ? new AppError('ABORTED', MAIL_TEXT.notFailed) : new AppError('NOT_FOUND', MAIL_TEXT.notFound);
      }
      await audit.record({
        actor,
        action: 'mail.retry',
        targetType: 'mail',
        targetId: id,
        details: { recipient: mail.recipient, subject: mail.subject },
      });
      return { mail };
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
