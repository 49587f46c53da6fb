import { data } from 'react-router';
import { NotFound } from '../components/layout/not-found.tsx';
import { rootDataFrom } from '../lib/page-meta.ts';
import type { Route } from './+types/not-found';

export function loader() {
  // Unknown paths answer 404, not a soft 200.
  throw data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Page not found | ${rootDataFrom(matches)?.site.companyName ?? 'Bagspace'}` },
  { name: 'robots', content: 'noindex' },
];

export default function NotFoundRoute() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
