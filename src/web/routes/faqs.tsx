import { useId, useState } from 'react';
import { type Faq, FAQ_TYPE_LABELS, FAQ_TYPES, parseFaqType } from '../../contracts/content.ts';
import { SwitchButtons } from '../components/ui/switch-buttons.tsx';
import { pageMeta } from '../lib/page-meta.ts';
import { requestContext } from '../lib/request-context.ts';
import type { Route } from './+types/faqs';
import { STATIC_PAGE } from '../lib/static-page.ts';

/** Plain server-rendered HTML: no app JavaScript in the browser (lib/static-page.ts). */
export const handle = STATIC_PAGE;

export async function loader({ request, context }: Route.LoaderArgs) {
  const type = parseFaqType(new URL(request.url).searchParams.get('type'));
  const faqs = await context.get(requestContext).services.listFaqs(type);
  return { type, faqs };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const type = loaderData?.type ?? 'general';
  const faqs = loaderData?.faqs ?? [];
  return [
    ...pageMeta(matches, {
      title: `${FAQ_TYPE_LABELS[type].title} | {company}`,
      description: 'Answers to common questions about sending items, travelling and earning with {company}.',
      path: type === 'general' ? '/faqs' : `/faqs?type=${type}`,
    }),
    {
      'script:ld+json': {
        '@context': 'https://schema.org',
        '@type': 'FAQPage',
        mainEntity: faqs.map((faq) => ({
          '@type': 'Question',
          name: faq.title,
          acceptedAnswer: { '@type': 'Answer', text: faq.content },
        })),
      },
    },
  ];
};

const TYPE_OPTIONS = FAQ_TYPES.map((value) => ({ value, label: FAQ_TYPE_LABELS[value].button }));

export default function Faqs({ loaderData }: Route.ComponentProps) {
  const { type, faqs } = loaderData;
  return (
    <div className="page page--narrow">
      <header className="page__header">
        <p className="eyebrow">Help centre</p>
        <h1>Frequently asked questions</h1>
      </header>
      <SwitchButtons name="type" label="Choose a question type" options={TYPE_OPTIONS} value={type} />
      <section aria-labelledby="faq-title" className="faq">
        <h2 id="faq-title" className="faq__title">
          {FAQ_TYPE_LABELS[type].title}
        </h2>
        {faqs.length === 0 ? (
          <p className="empty-state">There are no questions here yet.</p>
        ) : (
          <ul className="faq__list">
            {faqs.map((faq) => (
              <FaqRow key={faq.id} faq={faq} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function FaqRow({ faq }: { faq: Faq }) {
  const [expanded, setExpanded] = useState(false);
  const answerId = useId();
  return (
    <li className="faq-row">
      <h3 className="faq-row__heading">
        <button
          type="button"
          className="faq-row__question"
          aria-expanded={expanded}
          aria-controls={answerId}
          onClick={() => setExpanded((v) => !v)}
        >
          <span>{faq.title}</span>
          <span className="faq-toggle-icon" aria-hidden="true" />
        </button>
      </h3>
      <div id={answerId} className="faq-answer" hidden={!expanded}>
        <p>{faq.content}</p>
      </div>
    </li>
  );
}
