import { Link } from 'react-router';

export function NotFound() {
  return (
    <section className="page page--narrow not-found">
      <p className="eyebrow">Error 404</p>
      <h1>Page not found</h1>
      <p>The page you are looking for does not exist or has moved.</p>
      <p>
        <Link className="button button--primary" to="/">
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
