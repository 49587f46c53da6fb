import { Link } from 'react-router';
import { LogoMark } from './logo.tsx';

export function SiteFooter({ companyName }: { companyName: string }) {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <LogoMark size={28} />
          <span>{companyName}</span>
        </div>
        <nav aria-label="Footer">
          <ul className="site-footer__links">
            <li>
              <Link to="/about">About</Link>
            </li>
            <li>
              <Link to="/faqs">FAQ's</Link>
            </li>
            <li>
              <Link to="/legal">Terms and Conditions</Link>
            </li>
            <li>
              <Link to="/legal?doc=privacy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/register">Registering Company</Link>
            </li>
            <li>
              <Link to="/support">Support</Link>
            </li>
          </ul>
        </nav>
        <p className="site-footer__copyright">Copyright 2025 {companyName}</p>
      </div>
    </footer>
  );
}
