import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { E2E_OIDC_CLIENT } from './oidc-e2e-client.ts';

/**
 * A real OpenID provider on loopback for the staff sign-in tests (decision 148): oidc-provider, a
 * certified implementation, with one client (the app) allowed the code flow with PKCE, refresh
 * tokens and back-channel logout. Its people are set by the test; its login page is no page: the
 * interaction signs in whoever the test named for the next sign-in (with the `amr` it names), as
 * a person at a real provider would by typing their password.
 */
export interface ProviderPerson {
  email: string;
  emailVerified?: boolean;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people the provider knows, by subject; deleting one is deactivating them there. */
  people: Map<string, ProviderPerson>;
  /** Who signs in at the next authorization request, and how (amr values). */
  nextSignIn: { subject: string; amr: string[] } | null;
  /** The provider sends the app a back-channel logout for this subject's session (sid). */
  backchannelLogout(subject: string, sid: string): Promise<void>;
  close(): Promise<void>;
}

export async function startTestProvider(app: { callbackBase: string; port?: number }): Promise<TestProvider> {
  let handle: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(app.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const people = new Map<string, ProviderPerson>();
  const clientId = E2E_OIDC_CLIENT.id;
  const clientSecret = E2E_OIDC_CLIENT.secret;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${app.callbackBase}/auth/oidc/callback`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
        backchannel_logout_uri: `${app.callbackBase}/auth/oidc/backchannel-logout`,
        backchannel_logout_session_required: true,
      },
    ],
    scopes: ['openid', 'email', 'profile', 'offline_access', 'groups'],
    // amr with the ID token's openid claims: the app decides from it whether a second factor was asked.
    claims: { openid: ['sub', 'amr'], email: ['email', 'email_verified'], groups: ['groups'] },
    features: { devInteractions: { enabled: false }, backchannelLogout: { enabled: true } },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // A refresh token for the app whatever the prompt (the re-check needs one).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    async findAccount(_ctx, subject) {
      const person = people.get(subject);
      if (!person) return undefined;
      return {
        accountId: subject,
        async claims() {
          return {
            sub: subject,
            email: person.email,
            email_verified: person.emailVerified ?? true,
            ...(person.groups ? { groups: person.groups } : {}),
          };
        },
      };
    },
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, AuthorizationCode: 60, RefreshToken: 86_400 },
  };
  const provider = new Provider(issuer, configuration);
  const providerHandler = provider.callback();

  const testProvider: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    people,
    nextSignIn: null,
    async backchannelLogout(subject, sid) {
      // The provider's own logout token, made and signed as its Client#backchannelLogout makes it;
      // posted with Node's fetch (the provider's own HTTP client wants a newer undici than Node 20's).
      const client = await provider.Client.find(clientId);
      const token = new provider.IdToken({ sub: subject }, { client, ctx: undefined } as never) as unknown as {
        mask: unknown;
        set(name: string, value: unknown): void;
        issue(options: { use: 'logout' }): Promise<string>;
      };
      token.mask = { sub: null };
      token.set('events', { 'http://schemas.openid.net/event/backchannel-logout': {} });
      token.set('jti', randomUUID());
      token.set('sid', sid);
      const response = await fetch(client!.backchannelLogoutUri!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: await token.issue({ use: 'logout' }) }),
      });
      if (response.status !== 200 && response.status !== 204)
        throw new Error(`back-channel logout answered ${response.status}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  handle = (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return providerHandler(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      // Nobody named by the test: the provider's own sign-in page, as a person meets it in a browser.
      const next = testProvider.nextSignIn ?? (await signInPage(req, res));
      if (!next) return;
      const grant = new provider.Grant({ accountId: next.subject, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: next.subject, amr: next.amr }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  };
  /**
   * The provider's sign-in page: an email and whether a security key was used (the amr says so).
   * Its form posts back here; anyone with an address signs in (the provider vouches for it).
   */
  async function signInPage(req: http.IncomingMessage, res: http.ServerResponse) {
    if (req.method !== 'POST') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        '<!doctype html><html lang="en"><title>Test provider</title><main><h1>Test provider sign-in</h1>' +
          '<form method="post"><label>Work email <input name="email" type="email" required></label>' +
          '<label><input name="mfa" type="checkbox"> I used my security key</label>' +
          '<button type="submit">Continue</button></form></main></html>',
      );
      return null;
    }
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const form = new URLSearchParams(body);
    const email = (form.get('email') ?? '').trim().toLowerCase();
    const subject = `page-${Buffer.from(email).toString('base64url')}`;
    people.set(subject, { email });
    return { subject, amr: form.get('mfa') ? ['pwd', 'hwk'] : ['pwd'] };
  }

  return testProvider;
}

/**
 * A browser's cookies and redirects, enough for the sign-in dance: each answer's Set-Cookie is
 * kept per host and port, and 3xx answers are followed until one is not (or leaves loopback).
 */
export function testBrowser() {
  const jar = new Map<string, Map<string, string>>();
  const cookiesOf = (url: URL) => jar.get(url.host) ?? new Map<string, string>();
  function keep(url: URL, response: Response) {
    const cookies = cookiesOf(url);
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (gone) cookies.delete(name);
      else cookies.set(name, value);
    }
    jar.set(url.host, cookies);
  }
  const header = (url: URL) => [...cookiesOf(url)].map(([name, value]) => `${name}=${value}`).join('; ');

  return {
    cookie: (host: string, name: string) => jar.get(host)?.get(name),
    setCookie: (host: string, name: string, value: string) => {
      const cookies = jar.get(host) ?? new Map<string, string>();
      cookies.set(name, value);
      jar.set(host, cookies);
    },
    /** Follows redirects from `start`; the last answer and every address visited. */
    async go(start: string, init: RequestInit = {}) {
      let url = new URL(start);
      const visited: string[] = [url.href];
      let response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: { ...init.headers, cookie: header(url) },
      });
      keep(url, response);
      for (let hops = 0; hops < 20 && response.status >= 300 && response.status < 400; hops++) {
        url = new URL(response.headers.get('location')!, url);
        visited.push(url.href);
        await response.body?.cancel();
        response = await fetch(url, { redirect: 'manual', headers: { cookie: header(url) } });
        keep(url, response);
      }
      return { response, url, visited };
    },
  };
}
