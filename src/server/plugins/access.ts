import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  ACCESS_POLICIES,
  type AccessPolicy,
  type EndpointDeclaration,
  isPermission,
} from '../../contracts/endpoint.ts';
import { API_KEY_PREFIX, type ApiScope, INTEGRATION_TEXT } from '../../contracts/integrations.ts';
import type { Permission, StaffRole } from '../../contracts/roles.ts';
import { SECOND_FACTOR_MESSAGES } from '../../contracts/second-factor.ts';
import { AppError } from '../errors.ts';

/**
 * Deny by default (AZ-01): every route declares who may call it, and the app refuses to start with
 * a route that does not. The principal is resolved from the database on every request that needs it,
 * so a role change or a disabled account takes effect at once.
 */
export { ACCESS_POLICIES, type AccessPolicy } from '../../contracts/endpoint.ts';

export interface Principal {
  userId: string;
  email: string;
  /** 'admin': a member of staff (a console account) who passed the second factor; what they may do is `permissions`. */
  role: 'user' | 'admin';
  /** The staff roles held (empty for a customer); read from the database on every request. */
  roles: readonly StaffRole[];
  /** What those roles allow (src/contracts/roles.ts); empty for a customer and before the second factor. */
  permissions: readonly Permission[];
  emailVerified: boolean;
  sessionId: string;
  /**
   * An admin whose session has not passed the second factor (docs/product.md §2.15): `role` is then
   * 'user' and `permissions` empty, so the password alone opens nothing staff may do; only the routes marked
   * `secondFactorEnrolment` (setting one up) take them as admin.
   */
  secondFactorPending: boolean;
}

/** Whether this principal holds the permission (a staff member past the second factor whose roles grant it). */
export const can = (principal: Pick<Principal, 'permissions'> | null, permission: Permission): boolean =>
  Boolean(principal?.permissions.includes(permission));

export type PrincipalResolver = (request: FastifyRequest) => Promise<Principal | null>;

/** A service API key calling (docs/decisions/149-service-api-keys.md): not a person, never a principal. */
export interface KeyCaller {
  keyId: string;
  name: string;
  scopes: readonly ApiScope[];
}

/**
 * Finds the live key a token is (null: none; revoked and expired keys are none) and counts the
 * request against the key's rate limit (throws 429 past it).
 */
export type KeyResolver = (token: string) => Promise<KeyCaller | null>;

/** The service key a request presents as `Authorization: Bearer bsk_…`, if it presents one. */
export function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match && match[1]!.startsWith(API_KEY_PREFIX) ? match[1]! : null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessPolicy;
    /** A staff route staff may call before passing the second factor: its enrolment. */
    secondFactorEnrolment?: boolean;
    /** The declaration the route was registered from (src/contracts/api; http/endpoint-route.ts). */
    declaration?: EndpointDeclaration;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** The service key calling, when a key is (then `principal` is null). */
    keyCaller: KeyCaller | null;
  }
  interface FastifyInstance {
    /** Who is asking, looked up again: what a live stream re-checks while it stays open. */
    resolvePrincipal: PrincipalResolver;
  }
}

export class UndeclaredAccessError extends Error {
  override name = 'UndeclaredAccessError';
}

export const accessPlugin = fp<{ resolvePrincipal: PrincipalResolver; resolveKey: KeyResolver }>(
  async function accessPlugin(app: FastifyInstance, options) {
    app.decorateRequest('principal', null);
    app.decorateRequest('keyCaller', null);
    app.decorate('resolvePrincipal', options.resolvePrincipal);

    app.addHook('onRoute', (route) => {
      const access = (route.config as { access?: unknown } | undefined)?.access;
      if (!ACCESS_POLICIES.includes(access as AccessPolicy)) {
        throw new UndeclaredAccessError(
          `Route ${String(route.method)} ${route.url} declares no access policy (config.access must be one of ${ACCESS_POLICIES.join(', ')}).`,
        );
      }
    });

    // Before validation, so an anonymous caller learns nothing from a malformed body or id (401, not 400).
    app.addHook('preValidation', async (request) => {
      // The not-found handler is no route of ours and serves only "not found"; anything else undeclared is denied.
      const access = request.routeOptions.config.access ?? (request.is404 ? 'public' : 'users.manage');
      // A service key is never a person: it calls only what a declaration opens to one of its scopes.
      const token = presentedKey(request);
      if (token) {
        const key = await options.resolveKey(token);
        if (!key) throw new AppError('UNAUTHENTICATED', INTEGRATION_TEXT.keyInvalid);
        const scopes = request.routeOptions.config.declaration?.keyScopes ?? [];
        if (!scopes.some((scope) => key.scopes.includes(scope))) {
          throw new AppError('PERMISSION_DENIED', INTEGRATION_TEXT.keyNotAllowed);
        }
        request.keyCaller = key;
        return;
      }
      request.principal = await options.resolvePrincipal(request);
      if (access === 'public') return;
      const principal = request.principal;
      if (!principal) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
      if (access === 'key') throw new AppError('PERMISSION_DENIED', INTEGRATION_TEXT.keyOnly);
      if (access === 'verified' && !principal.emailVerified) {
        throw new AppError('PERMISSION_DENIED', 'The email associated with this account has not been verified!');
      }
      if (isPermission(access) && !principal.permissions.includes(access)) {
        if (principal.secondFactorPending) {
          if (request.routeOptions.config.secondFactorEnrolment) return;
          throw new AppError('PERMISSION_DENIED', SECOND_FACTOR_MESSAGES.enrolRequired);
        }
        throw new AppError('PERMISSION_DENIED', 'You do not have permission to do that.');
      }
    });
  },
);
