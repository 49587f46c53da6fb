import { Link, useRouteLoaderData } from 'react-router';
import { RegistrationForm } from '../features/register/registration-form.tsx';
import { pageMeta, type RootData } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import '../styles/register.css';
import type { Route } from './+types/register';

export async function loader({ context }: Route.LoaderArgs) {
  // The companies/links document is read once on this page and not shown (spec §3, §7); a failed
  // read is only logged, by the service.
  await context.get(requestContext).services.findCompanyLinks();
  return null;
}

// Nothing on this page depends on data that changes while it is open.
export function shouldRevalidate() {
  return false;
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Logistic Company Partner Registration | {company}',
    description: 'Apply to become a {company} logistics partner: tell us about your company and upload your commercial license.',
    path: '/register',
  });

export default function Register() {
  const companyName = useRouteLoaderData<RootData>('root')?.site.companyName ?? 'Bagspace';
  return (
    <div className="page register">
      <header className="page__header register__header">
        <p className="eyebrow">Partners</p>
        <h1 id="register-title">Logistic Company Partner Registration</h1>
        <p className="register__lead">
          Deliver with {companyName}. Tell us about your company and who we should talk to, and add a copy of your
          commercial license. Our partnerships team reviews every application.
        </p>
      </header>
      <noscript>
        <p className="alert alert--info">Please turn on JavaScript in your browser to send this form.</p>
      </noscript>
      <div className="register__layout">
        <RegistrationForm />
        <aside className="register__aside" aria-labelledby="register-next">
          <h2 id="register-next" className="register__aside-title">
            What happens next
          </h2>
          <ol className="register-steps">
            <li>We check your details and your commercial license.</li>
            <li>We contact the person you name here, by phone or email.</li>
            <li>Once approved, your company can take on deliveries through {companyName}.</li>
          </ol>
          <p className="register__aside-more">
            Questions first? Read our <Link to="/faqs">FAQ&apos;s</Link> or the{' '}
            <Link to="/legal">Terms and Conditions</Link>.
          </p>
        </aside>
      </div>
    </div>
  );
}
