import { Icon } from '../../components/ui/icons.tsx';

/**
 * The home page's icons. Apart from the shared ones (components/ui/icons.tsx): the home page is
 * never hydrated, but the client build still makes its module, and with these in the shared module
 * every page that loads a Send or Paperclip icon also loaded them.
 */
export const RouteIcon = () => (
  <Icon>
    <circle cx="6" cy="19" r="2.5" />
    <circle cx="18" cy="5" r="2.5" />
    <path d="M8.5 19h7a3.5 3.5 0 0 0 0-7h-7a3.5 3.5 0 0 1 0-7h7" />
  </Icon>
);
export const CommunityIcon = () => (
  <Icon>
    <circle cx="9" cy="8" r="3" />
    <circle cx="17" cy="9.5" r="2.5" />
    <path d="M3.5 19a5.5 5.5 0 0 1 11 0M14.5 15.2A4.5 4.5 0 0 1 21 19" />
  </Icon>
);
export const PriceIcon = () => (
  <Icon>
    <path d="M3 12V4.5A1.5 1.5 0 0 1 4.5 3H12l9 9-9 9-9-9Z" />
    <circle cx="8" cy="8" r="1.6" />
  </Icon>
);
export const PhoneIcon = () => (
  <Icon>
    <rect x="6" y="2.5" width="12" height="19" rx="2.5" />
    <path d="M10.5 18.5h3" />
  </Icon>
);
export const LeafIcon = () => (
  <Icon>
    <path d="M5 19C5 10 10 5 20 4c-.5 10-5.5 15-14 15Z" />
    <path d="M5 19l8-8" />
  </Icon>
);
export const WalletIcon = () => (
  <Icon>
    <path d="M3.5 7.5h15a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-13a2 2 0 0 1-2-2v-10a2 2 0 0 1 2-2h11" />
    <circle cx="16.5" cy="13.5" r="1.3" />
  </Icon>
);
export const AppleIcon = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor">
    <path d="M16.4 12.6c0-2.4 2-3.6 2.1-3.7-1.1-1.7-2.9-1.9-3.5-1.9-1.5-.2-2.9.9-3.7.9-.8 0-1.9-.9-3.2-.8-1.6 0-3.1 1-4 2.4-1.7 3-.4 7.3 1.2 9.7.8 1.2 1.8 2.5 3 2.4 1.2 0 1.7-.8 3.2-.8s1.9.8 3.2.8c1.3 0 2.2-1.2 3-2.4.9-1.4 1.3-2.7 1.3-2.8-.1 0-2.6-1-2.6-3.8ZM14 5.5c.7-.8 1.1-1.9 1-3-1 0-2.1.7-2.8 1.5-.6.7-1.2 1.8-1 2.9 1.1.1 2.1-.6 2.8-1.4Z" />
  </svg>
);
export const PlayIcon = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor">
    <path d="M4 2.8v18.4c0 .6.7 1 1.2.7l16-9.2c.5-.3.5-1.1 0-1.4l-16-9.2C4.7 1.8 4 2.2 4 2.8Z" />
  </svg>
);
