import { useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useHydrated } from '../../lib/hydrated.ts';
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
  const hydrated = useHydrated();
  const toggle = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  const isOpen = useRef(open);
  isOpen.current = open;
  // A chosen link closes the menu on narrow screens, and focus goes back to the menu button.
  useEffect(() => {
    if (!isOpen.current) return;
    setOpen(false);
    toggle.current?.focus();
  }, [location.pathname]);
  // Open, the menu closes on Escape (focus back on its button) and on a tap anywhere outside it
  // (WAI-ARIA disclosure navigation).
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (target && (nav.current?.contains(target) || toggle.current?.contains(target))) return;
      setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  return (
    // data-hydrated: the menu is the app's from here on (pages without the app use an inline script).
    <header className="site-header" data-hydrated={hydrated || undefined}>
      <div className="site-header__inner">
        <NavLink to="/" className="brand" aria-label={`${companyName} home`}>
          <LogoMark />
          <span className="brand__name">{companyName}</span>
        </NavLink>
        <button
          ref={toggle}
          type="button"
          className="nav-toggle"
          aria-expanded={open}
          aria-controls="site-nav"
          onClick={() => setOpen((v) => !v)}
        >
          <span className="nav-toggle__bars" aria-hidden="true" />
          <span className="visually-hidden">{open ? 'Close menu' : 'Open menu'}</span>
        </button>
        {/* Without JavaScript the button above does nothing (noscript.css hides it): this native
            disclosure takes its place on a phone, and the navigation after it shows while it is open. */}
        <details className="nav-fallback">
          <summary className="nav-toggle nav-fallback__summary">
            <span className="nav-toggle__bars" aria-hidden="true" />
            <span className="visually-hidden">Menu</span>
          </summary>
        </details>
        <nav ref={nav} id="site-nav" className={`site-nav${open ? ' site-nav--open' : ''}`} aria-label="Main">
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
                <NavLink to="/account" end className="site-nav__link">
                  Account
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
