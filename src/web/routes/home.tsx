import type { ReactNode } from 'react';
import { Link, useRouteLoaderData } from 'react-router';
import {
  AppleIcon,
  CommunityIcon,
  LeafIcon,
  PhoneIcon,
  PlayIcon,
  PriceIcon,
  RouteIcon,
  WalletIcon,
} from '../features/home/icons.tsx';
import { HeroIllustration } from '../features/home/hero-illustration.tsx';
import { pageMeta, type RootData } from '../lib/page-meta.ts';
import type { Route } from './+types/home';
import { STATIC_PAGE } from '../lib/static-page.ts';

/** Plain server-rendered HTML: no app JavaScript in the browser (lib/static-page.ts). */
export const handle = STATIC_PAGE;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Send anything across New Zealand with travellers | {company}',
    description:
      '{company} connects senders with travellers who have spare baggage space on trips across New Zealand. Deliver for less, or earn money on a trip you are already taking.',
    path: '/',
  });

const FEATURES: Array<{ title: string; text: string; icon: ReactNode }> = [
  {
    title: 'Distance delivery',
    text: 'Send items between towns and cities the same day a traveller makes the trip, from Kaitaia to Invercargill.',
    icon: <RouteIcon />,
  },
  {
    title: 'Community based service',
    text: 'Everyday New Zealanders help each other out. Ratings on both sides keep every delivery accountable.',
    icon: <CommunityIcon />,
  },
  {
    title: 'Competitive pricing',
    text: 'The traveller is going anyway, so you pay far less than a courier for the same distance.',
    icon: <PriceIcon />,
  },
  {
    title: 'Easy to use app',
    text: 'Find a trip, request a delivery, chat and follow each status update, all from your phone.',
    icon: <PhoneIcon />,
  },
  {
    title: 'Environmentally friendly',
    text: 'Items ride in space that would travel empty anyway, so no extra vans on the road and no extra emissions.',
    icon: <LeafIcon />,
  },
  {
    title: 'Earn as a traveller',
    text: 'List a trip you already have planned and get paid for carrying items in your spare baggage space.',
    icon: <WalletIcon />,
  },
];

export default function Home() {
  const root = useRouteLoaderData<RootData>('root');
  const company = root?.site.companyName ?? 'Bagspace';
  return (
    <>
      <section className="hero">
        <div className="hero__inner">
          <div className="hero__copy">
            <p className="eyebrow">Peer-to-peer delivery across Aotearoa</p>
            <h1 className="hero__title">Your parcel, in a traveller's spare baggage space.</h1>
            <p className="hero__lead">
              {company} connects people sending items with travellers already making the trip. Senders save on delivery,
              travellers earn money, and nothing extra goes on the road.
            </p>
            <div className="hero__actions">
              <a className="button button--primary" href="#download">
                Get the app
              </a>
              <Link className="button button--ghost" to="/about">
                How it works
              </Link>
            </div>
          </div>
          <HeroIllustration />
        </div>
      </section>

      <section className="section" aria-labelledby="features-title">
        <div className="section__inner">
          <h2 id="features-title" className="section__title">
            Why {company}
          </h2>
          <ul className="feature-grid">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="feature-card">
                <span className="feature-card__icon">{feature.icon}</span>
                <h3 className="feature-card__title">{feature.title}</h3>
                <p>{feature.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="download" className="section section--band" aria-labelledby="download-title">
        <div className="section__inner download">
          <div>
            <h2 id="download-title" className="section__title">
              Download the {company} app
            </h2>
            <p>Send your first item or list your next trip in minutes. Available on iPhone and Android.</p>
          </div>
          <div className="store-buttons">
            <a className="store-button" href={root?.site.appStoreUrl} rel="noopener">
              <AppleIcon />
              <span>
                <small>Download on the</small> App Store
              </span>
            </a>
            <a className="store-button" href={root?.site.googlePlayUrl} rel="noopener">
              <PlayIcon />
              <span>
                <small>Get it on</small> Google Play
              </span>
            </a>
          </div>
        </div>
      </section>

      <section className="section" aria-labelledby="partners-title">
        <div className="section__inner">
          <div className="partner-cta">
            <div>
              <h2 id="partners-title" className="section__title">
                Are you a logistics company?
              </h2>
              <p>Partner with {company} to reach customers and travellers across the country.</p>
            </div>
            <Link className="button button--primary" to="/register">
              Register your company
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
