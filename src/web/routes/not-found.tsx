import { data } from 'react-router';
import { NotFound } from '../components/layout/not-found.tsx';
import type { Route } from './+types/not-found';

export function loader() {
  // Unknown paths answer 404, not a soft 200.
  throw data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [{ title: 'Page not found' }, { name: 'robots', content: 'noindex' }];

export default function NotFoundRoute() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
