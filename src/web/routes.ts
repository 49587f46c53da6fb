import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('about', 'routes/about.tsx'),
  route('faqs', 'routes/faqs.tsx'),
  route('legal', 'routes/legal.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
