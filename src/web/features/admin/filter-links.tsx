import { Link } from 'react-router';

/**
 * A row of pills that are links (the look of SwitchButtons): for choices that are pages of their
 * own or filters in the URL (?state=…), so each is linkable and works without JavaScript. The
 * chosen one is the current page (aria-current).
 */
export function FilterLinks({
  label,
  links,
}: {
  label: string;
  links: ReadonlyArray<{ to: string; label: string; current: boolean }>;
}) {
  return (
    <nav className="switch switch--links" aria-label={label}>
      {links.map((link) => (
        <Link
          key={link.to}
          to={link.to}
          className="switch__button"
          aria-current={link.current ? 'page' : undefined}
          preventScrollReset
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}

/** The Mail page's two views: what the site sends (/admin/mail) and what comes in (/admin/mail/incoming). */
export function MailDirection({ current }: { current: 'outgoing' | 'incoming' }) {
  return (
    <FilterLinks
      label="Which mail"
      links={[
        { to: '/admin/mail', label: 'Outgoing', current: current === 'outgoing' },
        { to: '/admin/mail/incoming', label: 'Incoming', current: current === 'incoming' },
      ]}
    />
  );
}
