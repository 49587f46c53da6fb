import { NavLink, useLocation } from 'react-router';
import { ADMIN_TEXT } from '../../../contracts/admin.ts';
import type { Permission } from '../../../contracts/roles.ts';

export const ADMIN_SECTIONS = [
  {
    to: '/admin/support',
    needs: 'tickets.read',
    label: ADMIN_TEXT.nav.support,
    about: 'Every user’s tickets, live: answer, close and reopen.',
  },
  {
    to: '/admin/saved-replies',
    needs: 'tickets.read',
    label: ADMIN_TEXT.nav.savedReplies,
    about: 'The team’s reusable answers, filled in for each ticket.',
  },
  {
    to: '/admin/reports',
    needs: 'reports.read',
    label: ADMIN_TEXT.nav.reports,
    about: 'How fast the desk answers and who is waiting: times, busiest hours, ratings, per admin.',
  },
  {
    to: '/admin/business-hours',
    needs: 'tickets.read',
    label: ADMIN_TEXT.nav.businessHours,
    about: 'Opening hours, holidays and the targets due times are counted on.',
  },
  {
    to: '/admin/partners',
    needs: 'partners.read',
    label: ADMIN_TEXT.nav.partners,
    about: 'Review logistics companies: approve, reject, ban.',
  },
  {
    to: '/admin/faqs',
    needs: 'content.read',
    label: ADMIN_TEXT.nav.faqs,
    about: 'Add, edit, delete and reorder the public FAQ entries.',
  },
  {
    to: '/admin/legal',
    needs: 'content.read',
    label: ADMIN_TEXT.nav.legal,
    about: 'The Terms and Privacy links and our own documents.',
  },
  {
    to: '/admin/users',
    needs: 'users.read',
    label: ADMIN_TEXT.nav.users,
    about: 'Find accounts; resend verification, disable, change roles.',
  },
  {
    to: '/admin/audit',
    needs: 'audit.read',
    label: ADMIN_TEXT.nav.audit,
    about: 'Who did what, when, and to which record.',
  },
  {
    to: '/admin/mail',
    needs: 'mail.read',
    label: ADMIN_TEXT.nav.mail,
    about: 'Every mail the site sends: queued, sent, retrying or failed; send a failed one again.',
  },
  {
    to: '/admin/integrations',
    needs: 'integrations.read',
    label: ADMIN_TEXT.nav.integrations,
    about: 'API keys for the app and other systems, and webhooks with their delivery log.',
  },
  {
    to: '/admin/security',
    needs: 'console',
    label: ADMIN_TEXT.nav.security,
    about: 'Your own second factors and recovery codes: add, remove, renew.',
  },
] as const satisfies ReadonlyArray<{ to: string; needs: Permission; label: string; about: string }>;

/** The console's sections this staff member's permissions open (no link to a page that would refuse them). */
export const sectionsFor = (permissions: readonly Permission[]) =>
  ADMIN_SECTIONS.filter((section) => permissions.includes(section.needs));

function Links({ permissions }: { permissions: readonly Permission[] }) {
  return (
    <ul className="admin-nav__list">
      {sectionsFor(permissions).map((section) => (
        <li key={section.to}>
          <NavLink
            to={section.to}
            className="admin-nav__link"
            // i: the inbox, from anywhere in the console (docs/decisions/146-console-keyboard.md).
            data-shortcut={section.to === '/admin/support' ? 'i' : undefined}
          >
            {section.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** The section a console address belongs to (its longest matching prefix), or none on /admin itself. */
export const sectionOf = (pathname: string) =>
  ADMIN_SECTIONS.filter((s) => pathname === s.to || pathname.startsWith(`${s.to}/`)).sort(
    (a, b) => b.to.length - a.to.length,
  )[0];

/**
 * The console's own navigation: on a phone one control (a native `<details>`, so it opens without
 * JavaScript) that names the section you are in; a row of links over the page from 48 rem, and a
 * column beside it from 80 rem. Only one of the two is displayed at a width, so assistive
 * technology meets one set of links. A navigation closes the phone's menu (it is made anew).
 */
export function AdminNav({ permissions }: { permissions: readonly Permission[] }) {
  const { pathname } = useLocation();
  const here = sectionOf(pathname);
  return (
    <nav className="admin-nav" aria-label="Admin">
      <details key={pathname} className="admin-nav__menu">
        <summary className="admin-nav__summary">
          {ADMIN_TEXT.navMenu}
          {here ? <span className="admin-nav__here">: {here.label}</span> : null}
        </summary>
        <Links permissions={permissions} />
      </details>
      <div className="admin-nav__wide">
        <Links permissions={permissions} />
      </div>
    </nav>
  );
}
