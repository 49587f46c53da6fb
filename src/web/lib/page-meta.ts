import type { MetaDescriptor } from 'react-router';

export interface RootData {
  site: { companyName: string; publicBaseUrl: string; appStoreUrl: string; googlePlayUrl: string };
  user: { email: string; role: 'user' | 'admin'; emailVerified: boolean; secondFactorPending?: boolean } | null;
  /** The server answers this request with an error page instead of the page (see web-handler.ts). */
  pageError?: { status: number; message: string } | null;
}

type MatchesWithRoot = ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;

export function rootDataFrom(matches: MatchesWithRoot): RootData | undefined {
  return matches.find((m) => m?.id === 'root')?.loaderData as RootData | undefined;
}

/** Title, description and canonical link for a page (each page has its own). */
export function pageMeta(
  matches: MatchesWithRoot,
  page: { title: string; description: string; path: string },
): MetaDescriptor[] {
  const root = rootDataFrom(matches);
  const company = root?.site.companyName ?? 'Bagspace';
  const base = root?.site.publicBaseUrl ?? '';
  const title = page.title.replaceAll('{company}', company);
  const description = page.description.replaceAll('{company}', company);
  return [
    { title },
    { name: 'description', content: description },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:type', content: 'website' },
    { tagName: 'link', rel: 'canonical', href: `${base}${page.path}` },
  ];
}

/**
 * The title of a page behind sign-in, for what it shows: the page's own title once the visitor may
 * see it, 'Sign in' while the login screen stands in for it, 'Not allowed' for a signed-in user on
 * an admin page. Always '… | {company}', and never indexed.
 */
export function privatePageMeta(matches: MatchesWithRoot, area: 'support' | 'admin', title: string): MetaDescriptor[] {
  const root = rootDataFrom(matches);
  const company = root?.site.companyName ?? 'Bagspace';
  const user = root?.user;
  // An admin who has not passed a second factor sees its enrolment in place of the page (docs/product.md §2.15).
  const denied = user?.secondFactorPending ? 'Set up a second factor' : 'Not allowed';
  const shown = !user?.emailVerified ? 'Sign in' : area === 'admin' && user.role !== 'admin' ? denied : title;
  return [{ title: `${shown} | ${company}` }, { name: 'robots', content: 'noindex' }];
}
