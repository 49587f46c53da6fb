/** The app's client at the test provider (tests/helpers/oidc-provider.ts); playwright.config.ts gives the server the same. */
export const E2E_OIDC_CLIENT = { id: 'bagspace-console', secret: 'provider-test-secret-0123456789abcdef' };
