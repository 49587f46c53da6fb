import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { EndpointDeclaration } from '../../contracts/endpoint.ts';
import type { AccessPolicy } from './access.ts';

/**
 * Every route with the access policy it declared, as it was registered. The admin access tests walk
 * this table, so a new admin route is checked for 401/403 the moment it exists (AZ-06).
 * Register before any module's routes.
 */
export interface RouteAccess {
  methods: string[];
  url: string;
  access: AccessPolicy | undefined;
  /** Registered from an endpoint's declaration (src/contracts/api), as every /api route should be. */
  declared: EndpointDeclaration | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: readonly RouteAccess[];
  }
}

export const routeTablePlugin = fp(async function routeTable(app: FastifyInstance) {
  const table: RouteAccess[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    const config = route.config as { access?: AccessPolicy; declaration?: EndpointDeclaration } | undefined;
    table.push({ methods, url: route.url, access: config?.access, declared: config?.declaration });
  });
});
