import { useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { LogoMark } from './logo.tsx';
import { SignOutButton } from './sign-out-button.tsx';

export const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/faqs', label: "FAQ's" },
  { to: '/legal', label: 'Terms and Conditions' },
  { to: '/register', label: 'Registering Company' },
  { to: '/support', label: 'Support' },
] as const;

export function SiteHeader({
  companyName,
  signedIn,
  isAdmin,
}: {
  companyName: string;
  signedIn: boolean;
  isAdmin: boolean;
}) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  // A chosen link closes the menu on narrow screens.
  useEffect(() => setOpen(false), [location.pathname]);

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <NavLink to="/" className="brand" aria-label={`${companyName} home`}>
          <LogoMark />
          <span className="brand__name">{companyName}</span>
        </NavLink>
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={open}
          aria-controls="site-nav"
          onClick={() => setOpen((v) => !v)}
        >
          <span className="nav-toggle__bars" aria-hidden="true" />
          <span className="visually-hidden">{open ? 'Close menu' : 'Open menu'}</span>
        </button>
        <nav id="site-nav" className={`site-nav${open ? ' site-nav--open' : ''}`} aria-label="Main">
          <ul className="site-nav__list">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.to === '/'} className="site-nav__link" prefetch="intent">
                  {link.label}
                </NavLink>
              </li>
            ))}
            {isAdmin ? (
              <li>
                <NavLink to="/admin" className="site-nav__link">
                  Admin
                </NavLink>
              </li>
            ) : null}
            {signedIn ? (
              <li>
                <SignOutButton />
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
    </header>
  );
}
