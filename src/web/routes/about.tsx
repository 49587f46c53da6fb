import { useRouteLoaderData } from 'react-router';
import { pageMeta, type RootData } from '../lib/page-meta.ts';
import type { Route } from './+types/about';
import { STATIC_PAGE } from '../lib/static-page.ts';

/** Plain server-rendered HTML: no app JavaScript in the browser (lib/static-page.ts). */
export const handle = STATIC_PAGE;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'About us: how it works | {company}',
    description:
      'Our mission and how {company} works for travellers and senders, step by step: list a trip, carry an item, get paid; or send an item with someone already going your way.',
    path: '/about',
  });

const TRAVELLER_STEPS = [
  'List a trip. It is verified before it appears in the app.',
  'Wait for delivery requests from senders.',
  'Send an offer for the items you are happy to carry.',
  'Confirm the pick-up and scan the QR code when you receive the item.',
  'Deliver the item and mark it delivered.',
  'Get paid once the customer confirms, then rate the customer.',
];

const SENDER_STEPS = [
  'Browse the trips going your way.',
  'Send a delivery request for your item.',
  'Chat with the traveller and accept their offer.',
  'Watch the status updates until your item is delivered.',
  'Rate the traveller, which finalises the delivery.',
];

export default function About() {
  const root = useRouteLoaderData<RootData>('root');
  const company = root?.site.companyName ?? 'Bagspace';
  return (
    <div className="page">
      <header className="page__header">
        <p className="eyebrow">About us</p>
        <h1>Delivery that travels with people</h1>
      </header>
      <section className="mission" aria-labelledby="mission-title">
        <h2 id="mission-title">Our mission</h2>
        <p>
          Every day thousands of New Zealanders fly, drive, bus and sail between our towns and cities with room to spare
          in their bags. {company} turns that space into a fast, affordable and low-emission delivery network: senders
          get items across the country for less, and travellers earn money from a trip they are already taking.
        </p>
      </section>
      <div className="steps">
        <section className="steps__column" aria-labelledby="traveller-steps">
          <h2 id="traveller-steps">For travellers</h2>
          <ol className="step-list">
            {TRAVELLER_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </section>
        <section className="steps__column" aria-labelledby="sender-steps">
          <h2 id="sender-steps">For senders</h2>
          <ol className="step-list">
            {SENDER_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}
