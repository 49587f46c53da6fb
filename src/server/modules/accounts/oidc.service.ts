import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { OIDC_TEXT } from '../../../contracts/auth.ts';
import { STAFF_ROLES, type StaffRole } from '../../../contracts/roles.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Logger } from '../../logging.ts';
import { createToken, hashToken } from '../../security/tokens.ts';
import type { SessionDevice } from './accounts.device.ts';
import type { AccountsRepository } from './accounts.repository.ts';
import type { OidcRepository, PendingLogin } from './oidc.repository.ts';
import { hashPassword } from './passwords.ts';
import type { SignInService } from './sign-in.service.ts';

/**
 * Staff sign-in with the company's identity provider (docs/decisions/148-staff-sign-in-oidc.md):
 * the authorization code flow with PKCE, state and nonce, the ID token checked by openid-client;
 * the account matched by its verified email (or made from an open invitation), its roles following
 * the provider's groups where a mapping is set, our own second factor asked unless the provider's
 * `amr` says it asked one. Sessions that began there are re-checked with their refresh token every
 * few minutes and end at once on the provider's back-channel logout.
 */

export type OidcSettings = NonNullable<Config['oidc']>;

const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** Where the flow came back to: a session, our own code step, or why not (shown on the login screen). */
export type CallbackOutcome =
  | { outcome: 'signed-in'; token: string; returnTo: string }
  | { outcome: 'code-step'; ticket: string; email: string; returnTo: string }
  | { outcome: 'refused'; reason: keyof typeof OIDC_TEXT.refused };

/** Loopback issuers (the tests' provider, a developer's) may speak plain http; anything else must not. */
const loopback = (issuer: string) => /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(issuer);

export function createOidcService(deps: {
  settings: OidcSettings;
  publicBaseUrl: string;
  repository: OidcRepository;
  accounts: Pick<AccountsRepository, 'findUserByEmail' | 'insertUser' | 'setRoles' | 'markEmailVerified'>;
  signIn: Pick<SignInService, 'signInFromProvider'>;
  clock: Clock;
  logger: Logger;
}) {
  const { settings, repository, accounts, signIn, clock, logger } = deps;
  const redirectUri = `${deps.publicBaseUrl}/auth/oidc/callback`;
  let discovered: Promise<client.Configuration> | undefined;
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  /** The provider's metadata, read once (again after a failure). */
  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        client.ClientSecretPost(settings.clientSecret),
        loopback(settings.issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  }

  /** The roles the provider's groups give, where a mapping is set; null without one. */
  function rolesFromGroups(claims: Record<string, unknown>): StaffRole[] | null {
    if (settings.groupRoles.length === 0) return null;
    const value = claims[settings.groupsClaim];
    const groups = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
    const roles = new Set(settings.groupRoles.filter(([group]) => groups.includes(group)).map(([, role]) => role));
    return STAFF_ROLES.filter((role) => roles.has(role));
  }

  /** The account this verified address signs in as: staff already, or made so by an open invitation. */
  async function staffAccount(
    email: string,
    claims: Record<string, unknown>,
  ): Promise<{ refused: 'disabled' | 'unknown' | 'noGroup' } | { refused?: undefined; user: { id: string } }> {
    const fromGroups = rolesFromGroups(claims);
    const existing = await accounts.findUserByEmail(email);
    if (existing?.disabledAt) return { refused: 'disabled' as const };
    const invitation = existing?.role === 'admin' ? null : await repository.openInvitation(email, clock.now());
    if (existing?.role !== 'admin' && !invitation) return { refused: 'unknown' as const };
    let user = existing;
    if (!user) {
      // A new console account: its password is a random one nobody knows (the provider is the way in).
      user = await accounts.insertUser({
        email,
        passwordHash: await hashPassword(createToken()),
        role: 'user',
        verified: true,
      });
      if (!user) return { refused: 'unknown' as const };
    } else if (!user.emailVerifiedAt) await accounts.markEmailVerified(user.id);
    // The provider's groups decide where a mapping is set; else (or in none of them) the invitation's roles.
    const roles =
      fromGroups !== null && fromGroups.length > 0 ? fromGroups : invitation ? (invitation.roles as StaffRole[]) : null;
    if (fromGroups !== null && fromGroups.length === 0 && !invitation) return { refused: 'noGroup' as const };
    if (roles !== null && roles.length > 0 && !(await accounts.setRoles(user.id, roles)))
      logger.warn({ userId: user.id }, 'the provider groups would remove the last admin: roles kept');
    if (invitation) await repository.acceptInvitation(invitation.id);
    return { user };
  }

  return {
    providerName: settings.providerName,

    /** The address to send the browser to, and the state its cookie binds to this browser. */
    async start(returnTo: string): Promise<{ url: string; state: string }> {
      const config = await configuration();
      const login: PendingLogin = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        returnTo,
      };
      await repository.saveLogin(login, clock.now());
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(login.codeVerifier),
        code_challenge_method: 'S256',
        state: login.state,
        nonce: login.nonce,
      });
      return { url: url.href, state: login.state };
    },

    /**
     * The provider's answer: the state must be this browser's (its cookie) and unused, the code is
     * exchanged with the PKCE verifier, and the ID token's signature, issuer, audience, expiry and
     * nonce are checked (openid-client). Then the account, its roles, and the second factor.
     */
    async callback(input: {
      url: URL;
      browserState: string | null;
      ip: string;
      device: SessionDevice;
      presentedToken: string | null;
    }): Promise<CallbackOutcome> {
      const state = input.url.searchParams.get('state');
      if (!state || state !== input.browserState) return { outcome: 'refused', reason: 'expired' };
      const login = await repository.takeLogin(state, clock.now());
      if (!login) return { outcome: 'refused', reason: 'expired' };
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      let claims: Record<string, unknown>;
      try {
        const config = await configuration();
        tokens = await client.authorizationCodeGrant(config, input.url, {
          pkceCodeVerifier: login.codeVerifier,
          expectedState: login.state,
          expectedNonce: login.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims()!;
        const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...idClaims };
      } catch (error) {
        logger.info(
          { err: error instanceof Error ? error.message : String(error), ip: input.ip },
          'oidc sign-in refused',
        );
        return { outcome: 'refused', reason: 'failed' };
      }
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      if (!email || claims.email_verified !== true) return { outcome: 'refused', reason: 'unverified' };
      const domain = email.slice(email.lastIndexOf('@') + 1);
      if (settings.allowedDomains.length > 0 && !settings.allowedDomains.includes(domain))
        return { outcome: 'refused', reason: 'domain' };
      const account = await staffAccount(email, claims);
      if (account.refused) return { outcome: 'refused', reason: account.refused };
      const amr = Array.isArray(claims.amr) ? claims.amr.map(String) : [];
      const secondFactorDone = amr.some((value) => settings.secondFactorAmr.includes(value));
      const provider = {
        subject: String(claims.sub),
        sid: typeof claims.sid === 'string' ? claims.sid : null,
        refreshToken: tokens.refresh_token ?? null,
      };
      const result = await signIn.signInFromProvider({
        userId: account.user.id,
        secondFactorDone,
        ip: input.ip,
        device: input.device,
        presentedToken: input.presentedToken,
      });
      if (result.outcome === 'signed-in') {
        await repository.saveSession({ tokenHash: result.session.tokenHash, ...provider, now: clock.now() });
        logger.info({ userId: account.user.id, amr: secondFactorDone }, 'staff signed in at the identity provider');
        return { outcome: 'signed-in', token: result.session.token, returnTo: login.returnTo };
      }
      if (result.outcome === 'second-factor-needed' && result.ticket) {
        await repository.waitForCode(login, hashToken(result.ticket), provider);
        return { outcome: 'code-step', ticket: result.ticket, email, returnTo: login.returnTo };
      }
      return { outcome: 'refused', reason: 'failed' };
    },

    /** The code step's ticket was redeemed: the provider's sign-in waiting under it follows. */
    ticketRedeemed: (ticket: string, next: { tokenHash: string } | { ticket: string }) =>
      repository.ticketRedeemed(
        hashToken(ticket),
        'ticket' in next ? { ticketHash: hashToken(next.ticket) } : { tokenHash: next.tokenHash },
        clock.now(),
      ),

    /**
     * One round of the re-check: every session from the provider not checked for the interval asks
     * the provider again with its refresh token. A refusal (the person was deactivated, the grant
     * revoked) ends the session and its live streams; a provider that cannot be reached is asked
     * again next round (logged), so an outage does not sign the whole team out.
     */
    async recheck(): Promise<{ checked: number; ended: number }> {
      const due = await repository.dueForCheck(new Date(clock.now().getTime() - settings.recheckMs), 200);
      let ended = 0;
      for (const session of due) {
        if (!session.refreshToken) {
          // No refresh token (the provider gave none): nothing to re-check with, so the session ends.
          ended += await repository.endSession(session.tokenHash);
          continue;
        }
        try {
          const fresh = await client.refreshTokenGrant(await configuration(), session.refreshToken);
          await repository.checked(session.tokenHash, clock.now(), fresh.refresh_token ?? null);
        } catch (error) {
          if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
            ended += await repository.endSession(session.tokenHash);
            logger.info({ userId: session.userId, error: error.error }, 'staff session ended: the provider refused it');
          } else {
            logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'oidc re-check failed');
          }
        }
      }
      return { checked: due.length, ended };
    },

    /** OpenID Connect Back-Channel Logout 1.0: a logout token signed by the provider ends its sessions. */
    async backchannelLogout(logoutToken: string): Promise<number> {
      const config = await configuration();
      const metadata = config.serverMetadata();
      jwks ??= createRemoteJWKSet(new URL(metadata.jwks_uri!));
      const { payload } = await jwtVerify(logoutToken, jwks, {
        issuer: metadata.issuer,
        audience: settings.clientId,
        maxTokenAge: '10m',
      });
      const events = payload.events as Record<string, unknown> | undefined;
      if (!events || typeof events[BACKCHANNEL_EVENT] !== 'object') throw new Error('not a logout token');
      if (payload.nonce !== undefined) throw new Error('a logout token carries no nonce');
      const sid = typeof payload.sid === 'string' ? payload.sid : undefined;
      const sub = typeof payload.sub === 'string' ? payload.sub : undefined;
      if (!sid && !sub) throw new Error('a logout token names a session or a subject');
      const ended = await repository.endProviderSessions({ sid, sub });
      logger.info({ ended }, 'back-channel logout');
      return ended;
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
