/**
 * The delivery on a ticket (docs/decisions/151-delivery-card.md): the reference staff give a ticket,
 * and the card the console shows from what our app says of that delivery. Texts, limits and plain
 * functions only; the schemas are in delivery-card.schemas.ts.
 */

export const DELIVERY_REFERENCE_MAX_LENGTH = 64;
/** Letters, digits, dots, hyphens and underscores: a reference such as BGS-1001. */
export const DELIVERY_REFERENCE_PATTERN = /^[A-Za-z0-9._-]*$/;

export const DELIVERY_TEXT = {
  /** The reference's label, on the ticket and in its form. */
  reference: 'Delivery reference',
  noReference: 'none',
  save: 'Save reference',
  /** Under the field: what it takes, and how to take it off. */
  referenceHint: 'Like BGS-1001: letters, digits, dots, hyphens and underscores. Leave it empty to remove it.',
  saved: 'Delivery reference saved.',
  referenceNotText: 'Write the delivery reference as text, like BGS-1001.',
  referenceTooLong: `A delivery reference is at most ${DELIVERY_REFERENCE_MAX_LENGTH} characters long.`,
  referenceCharacters:
    'A delivery reference has only letters, digits, dots, hyphens and underscores (like BGS-1001), with no spaces.',

  cardTitle: 'The delivery',
  loading: 'Loading the delivery’s details from the app…',
  /** The card's own page: it works without the page's script, and opens in a tab of its own. */
  openOnItsOwn: 'Open the delivery’s details on their own page',
  ownPageTitle: (reference: string) => `Delivery ${reference}`,
  backToTicket: 'Back to the ticket',
  unavailable: 'The delivery’s details could not be loaded from the app. Try again in a minute.',
  unknown: (reference: string) =>
    `The app knows no delivery with the reference ${reference}. Check the reference on this ticket.`,
  noCard: 'This ticket has no delivery reference, so there is no delivery to show.',
  off: 'The delivery card is not set up on this server.',

  status: 'Status',
  route: 'Route',
  routeText: (from: string, to: string) => `${from} → ${to}`,
  booked: 'Booked',
  pickedUp: 'Picked up',
  delivered: 'Delivered',
  expected: 'Expected',
  sender: 'Sender',
  traveller: 'Traveller',
  item: 'Item',
  declaredValue: 'Declared value',
  history: 'What happened',
  photos: 'Handover photos',
  photo: (index: number) => `Photo ${index}`,
  /** A photo link says it opens a new tab (for screen readers too). */
  opensInNewTab: '(opens in a new tab)',
} as const;

/** The statuses the app is known to send, as people read them; any other is shown as it came, tidied. */
const STATUS_WORDS: Record<string, string> = {
  booked: 'Booked',
  'picked-up': 'Picked up',
  'in-transit': 'In transit',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  disputed: 'Disputed',
  lost: 'Lost',
};

export function deliveryStatusLabel(status: string): string {
  const key = status
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  const known = STATUS_WORDS[key];
  if (known) return known;
  const words = key.replace(/-+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : status;
}

/** An amount of money as New Zealanders write it, e.g. `NZ$120.00`; an odd currency code still reads. */
export function formatDeclaredValue(value: { amount: number; currency: string }): string {
  try {
    return new Intl.NumberFormat('en-NZ', { style: 'currency', currency: value.currency }).format(value.amount);
  } catch {
    return `${value.amount.toFixed(2)} ${value.currency}`;
  }
}

/** A link from the app is followed only when it is http(s) (the schema checks it; this is the page's own guard). */
export function isWebLink(url: string): boolean {
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
