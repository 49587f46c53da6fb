/**
 * Which of the login screen's two forms an answer belongs to. Apart from sign-in-action.ts, which
 * builds the forms' schemas when it loads: the console's layout names the sign-in form in the
 * browser, and importing it from there put zod on every console page.
 */
export const SIGN_IN_FORM = 'sign-in';
export const RESEND_FORM = 'resend';
