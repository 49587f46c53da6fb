import type { EndpointDeclaration } from '../endpoint.ts';
import { accountApi, authApi, usersApi } from './accounts.ts';
import { attachmentsApi } from './attachments.ts';
import { auditApi } from './audit.ts';
import { bulkApi } from './bulk.ts';
import { claimsApi } from './claims.ts';
import { contentAdminApi, contentApi } from './content.ts';
import { inboundApi } from './inbound.ts';
import { apiKeysApi, appApi, webhooksApi } from './integrations.ts';
import { labelsApi } from './labels.ts';
import { notificationsApi } from './notifications.ts';
import { partnerChangesApi, partnerReviewApi, partnersApi } from './partners.ts';
import { privacyApi } from './privacy.ts';
import { reportsApi } from './reports.ts';
import { secondFactorApi } from './second-factor.ts';
import { serviceLevelsApi } from './service-levels.ts';
import { sideApi } from './side-conversations.ts';
import { deskApi, supportApi } from './support.ts';

/**
 * Every endpoint of the API, by domain: what the server registers and the tests walk (each route
 * registered from exactly one declaration, each declaration registered). Pages import the domain's
 * own file, not this one, so a page's bundle holds only the declarations it calls.
 */
export const API = {
  auth: authApi,
  account: accountApi,
  users: usersApi,
  secondFactor: secondFactorApi,
  content: contentApi,
  contentAdmin: contentAdminApi,
  support: supportApi,
  desk: deskApi,
  attachments: attachmentsApi,
  partners: partnersApi,
  partnerReview: partnerReviewApi,
  partnerChanges: partnerChangesApi,
  notifications: notificationsApi,
  inbound: inboundApi,
  audit: auditApi,
  privacy: privacyApi,
  serviceLevels: serviceLevelsApi,
  reports: reportsApi,
  side: sideApi,
  claims: claimsApi,
  labels: labelsApi,
  bulk: bulkApi,
  apiKeys: apiKeysApi,
  webhooks: webhooksApi,
  app: appApi,
} as const;

type Api = typeof API;

/** A declaration's name: its domain and its key there, e.g. `support.createTicket`. The tests key their tables by it. */
export type EndpointKey = { [D in keyof Api]: `${D & string}.${keyof Api[D] & string}` }[keyof Api];

/** Every declaration with its name. */
export const namedEndpoints = (): Array<[EndpointKey, EndpointDeclaration]> =>
  Object.entries(API).flatMap(([domain, endpoints]) =>
    Object.entries(endpoints as Record<string, EndpointDeclaration>).map(
      ([name, declaration]): [EndpointKey, EndpointDeclaration] => [`${domain}.${name}` as EndpointKey, declaration],
    ),
  );

/** All declarations in one list. */
export const allEndpoints = (): EndpointDeclaration[] => namedEndpoints().map(([, declaration]) => declaration);
