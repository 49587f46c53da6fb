import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SharedServices } from '../../shared-services.ts';
import { createContentAdminRepository } from './content.admin.repository.ts';
import { contentAdminRoutes } from './content.admin.routes.ts';
import { createContentAdminService } from './content.admin.service.ts';
import { contentCachePlugin, createContentCache } from './content.cache.ts';
import { createContentRepository } from './content.repository.ts';
import { contentRoutes } from './content.routes.ts';
import { createContentService, type ContentService } from './content.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Public content as the pages read it. */
    content: ContentService;
    /** Runs `listener` whenever public content may have changed, here or on another instance. */
    onContentChange(listener: () => void): void;
  }
}

/**
 * The content module: FAQs, the settings documents and our hosted legal documents, read by the
 * public API and the pages (`app.content`), and edited from the admin console.
 */
export const contentModule = fp<SharedServices>(
  async function content(app: FastifyInstance, shared) {
    const { config, database } = shared;
    // Public content is kept in memory until an admin edits it (change 1 in bench/results/changes.json).
    const cache = createContentCache(database, shared.log);
    await cache.start();
    app.addHook('onClose', () => cache.stop());
    // Before the admin routes below: their successful edits empty the cache before answering.
    await app.register(contentCachePlugin, { cache });

    const content = createContentService(createContentRepository(database.db), cache);
    app.decorate('content', content);
    app.decorate('onContentChange', (listener: () => void) => cache.onInvalidate(listener));

    const admin = createContentAdminService({
      repository: createContentAdminRepository(database.db),
      audit: shared.audit,
    });
    await app.register(contentRoutes, { content, cache, companyName: config.companyName });
    await app.register(contentAdminRoutes, { content: admin });
  },
  { name: 'content' },
);
