/** The first-admin setup page (/setup): every string it shows. */
export const SETUP_TEXT = {
  title: 'Create the first admin',
  intro:
    'This site has no admin yet. The account you create here is a verified admin of the console, signed in at once: next you set up its second factor. The link that brought you here works once.',
  submit: 'Create admin account',
  linkInvalid:
    'This setup link has expired, was already used, or the site already has an admin. Restart the server for a new link, or create an admin with npm run cli -- create-user --admin.',
  passwordsDiffer: 'The passwords do not match.',
  done: 'The admin account is ready.',
  signIn: 'Sign in to the admin console',
} as const;
