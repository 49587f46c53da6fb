import type { EndpointDeclaration } from '../endpoint.ts';
import { accountApi, authApi, usersApi } from './accounts.ts';
import { attachmentsApi } from './attachments.ts';
import { auditApi } from './audit.ts';
import { contentAdminApi, contentApi } from './content.ts';
import { inboundApi } from './inbound.ts';
import { notificationsApi } from './notifications.ts';
import { partnerReviewApi, partnersApi } from './partners.ts';
import { privacyApi } from './privacy.ts';
import { reportsApi } from './reports.ts';
import { secondFactorApi } from './second-factor.ts';
import { serviceLevelsApi } from './service-levels.ts';
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
  notifications: notificationsApi,
  inbound: inboundApi,
  audit: auditApi,
  privacy: privacyApi,
  serviceLevels: serviceLevelsApi,
  reports: reportsApi,
} as const;

/** All declarations in one list. */
export const allEndpoints = (): EndpointDeclaration[] =>
  Object.values(API).flatMap((domain) => Object.values(domain as Record<string, EndpointDeclaration>));
