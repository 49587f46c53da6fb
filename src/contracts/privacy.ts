/**
 * What a person can take of their data (docs/data-export.md): one JSON file with everything we
 * hold about them. Its `format` names this layout; a change to it gets a new version.
 */
export const DATA_EXPORT_FORMAT = 'bagspace-data-export/3';

export const PRIVACY_TEXT = {
  downloadData: 'Download my data',
  downloadHint:
    'A JSON file with everything we hold about you: your account, sign-ins, tickets and their messages and files, ratings, mail settings, partner applications with your email, and what our team did with your account.',
} as const;
