import { LEGAL_DOCUMENT_LABELS, LEGAL_DOCUMENTS, parseLegalDocument } from '../../contracts/content.ts';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/legal';
import { STATIC_PAGE } from '../lib/static-page.ts';

/** Plain server-rendered HTML: no app JavaScript in the browser (lib/static-page.ts). */
export const handle = STATIC_PAGE;

export async function loader({ request, context }: Route.LoaderArgs) {
  const doc = parseLegalDocument(new URL(request.url).searchParams.get('doc'));
  const links = await context.get(requestContext).services.findLegalLinks();
  // A failed read is only logged (docs/product.md §8): the page still renders, without a frame.
  return { doc, link: links ? links[doc] : null };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const doc = loaderData?.doc ?? 'terms';
  return pageMeta(matches, {
    title: `${LEGAL_DOCUMENT_LABELS[doc]} | {company}`,
    description: 'The {company} Terms and Conditions and Privacy Policy.',
    path: doc === 'terms' ? '/legal' : '/legal?doc=privacy',
  });
};

const DOC_OPTIONS = LEGAL_DOCUMENTS.map((value) => ({ value, label: LEGAL_DOCUMENT_LABELS[value] }));

export default function Legal({ loaderData }: Route.ComponentProps) {
  const { doc, link } = loaderData;
  return (
    <div className="page">
      <header className="page__header">
        <p className="eyebrow">Legal</p>
        <h1>{LEGAL_DOCUMENT_LABELS[doc]}</h1>
      </header>
      <SwitchButtons name="doc" label="Choose a document" options={DOC_OPTIONS} value={doc} />
      {link ? (
        <div className="legal-frame">
          <iframe key={link} src={link} title={LEGAL_DOCUMENT_LABELS[doc]} className="legal-frame__frame" />
          <p className="legal-frame__fallback">
            <a href={link} target="_blank" rel="noopener">
              Open the {LEGAL_DOCUMENT_LABELS[doc]} in a new tab
            </a>
          </p>
        </div>
      ) : (
        <p className="empty-state">This document is not available right now. Please try again later.</p>
      )}
    </div>
  );
}
