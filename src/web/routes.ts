import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('about', 'routes/about.tsx'),
  route('faqs', 'routes/faqs.tsx'),
  route('legal', 'routes/legal.tsx'),
  route('register', 'routes/register.tsx'),
  // The applicant's private status link, from the 'application received' mail (docs/decisions/112-application-status-page.md).
  route('partners/status', 'routes/partner-status-find.tsx'),
  route('partners/status/:token', 'routes/partner-status.tsx'),
  // Accounts (docs/product.md §2.8): every /support route shows the login screen until a verified user signs in.
  route('support', 'routes/support.tsx', [
    // Support (docs/product.md §2.7): the ticket list answers /support and any unknown mode.
    index('routes/support-tickets.tsx', { id: 'support-index' }),
    route('create-ticket', 'routes/support-create-ticket.tsx'),
    route('ticket/:ticketId', 'routes/support-ticket.tsx'),
    // Reply by email (docs/decisions/105-reply-by-email.md): the whole mail a message was posted from.
    route('ticket/:ticketId/mail/:messageId', 'routes/support-ticket-mail.tsx'),
    // A claim's traveller answers (docs/decisions/153-claim-life.md): the link of the mail staff sent.
    route('claims/:claimId', 'routes/support-claim.tsx'),
    route(':mode', 'routes/support-tickets.tsx', { id: 'support-mode' }),
    route(':mode/:ticketId', 'routes/support-tickets.tsx', { id: 'support-mode-ticket' }),
  ]),
  route('sign-out', 'routes/sign-out.tsx'),
  route('signup', 'routes/signup.tsx'),
  route('verify-email', 'routes/verify-email.tsx'),
  route('forgot-password', 'routes/forgot-password.tsx'),
  route('reset-password', 'routes/reset-password.tsx'),
  // The first admin, from the one-time link a server prints while there is none (docs/operations.md).
  route('setup', 'routes/setup.tsx'),
  // Your account (docs/product.md §2.13): profile, email change, sessions; the link mailed to a new address.
  route('account', 'routes/account.tsx'),
  route('confirm-email', 'routes/confirm-email.tsx'),
  route('account/password', 'routes/account-password.tsx'),
  // Deleting the account (docs/product.md §2.14).
  route('account/delete', 'routes/account-delete.tsx'),
  // Notification mail (docs/decisions/090-mail-outbox.md): settings, and the one-click unsubscribe address of every notification.
  route('account/notifications', 'routes/account-notifications.tsx'),
  route('unsubscribe/:token', 'routes/unsubscribe.tsx'),
  // Admin console (docs/product.md §2.9): the login screen for visitors, "not allowed" for signed-in non-admins.
  route('admin', 'routes/admin.tsx', [
    index('routes/admin-home.tsx'),
    route('support', 'routes/admin-support.tsx'),
    route('support/:ticketId', 'routes/admin-ticket.tsx'),
    // The ticket's delivery card on a page of its own (decision 151): the card without JavaScript.
    route('support/:ticketId/delivery', 'routes/admin-ticket-delivery.tsx'),
    route('support/:ticketId/mail/:messageId', 'routes/admin-ticket-mail.tsx'),
    // The whole mail of a side conversation's reply (decision 138).
    route('support/:ticketId/side/:sideId/mail/:messageId', 'routes/admin-side-mail.tsx'),
    route('saved-replies', 'routes/admin-saved-replies.tsx'),
    // The team's labels (decision 141).
    route('labels', 'routes/admin-labels.tsx'),
    route('reports', 'routes/admin-reports.tsx'),
    route('reports/tickets', 'routes/admin-report-tickets.tsx'),
    route('business-hours', 'routes/admin-business-hours.tsx'),
    route('partners', 'routes/admin-partners.tsx'),
    route('partners/:companyId', 'routes/admin-partner.tsx'),
    route('faqs', 'routes/admin-faqs.tsx'),
    route('legal', 'routes/admin-legal.tsx'),
    route('users', 'routes/admin-users.tsx'),
    route('audit', 'routes/admin-audit.tsx'),
    route('mail', 'routes/admin-mail.tsx'),
    // API keys and webhooks (docs/integrations.md).
    route('integrations', 'routes/admin-integrations.tsx'),
    route('integrations/webhooks/:endpointId', 'routes/admin-webhook.tsx'),
    // Mail that comes in (reply by email): posted, held for an admin, ignored.
    route('mail/incoming', 'routes/admin-mail-incoming.tsx'),
    // The admin's own second factors and recovery codes (docs/product.md §2.15).
    route('security', 'routes/admin-security.tsx'),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
