import type { Faq, FaqType, LegalLinks } from '../../../contracts/content.ts';
import { LegalLinksSchema } from '../../../contracts/content.schemas.ts';
import { AppError } from '../../errors.ts';
import type { ContentCache } from './content.cache.ts';
import type { ContentRepository, HostedDocument } from './content.repository.ts';

/** The content cache's keys of the public API's serialised answers (what content.routes.ts prepares). */
export const faqsJsonKey = (type: FaqType) => `faqs-json:${type}`;
export const LEGAL_LINKS_JSON_KEY = 'legal-links-json';

/** Reads public content; with a cache, the FAQ lists are read once until an admin edits content. */
export function createContentService(repository: ContentRepository, cache?: ContentCache) {
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => (cache ? cache.get(key, load) : load());

  return {
    async listFaqs(type: FaqType): Promise<Faq[]> {
      return cached(`faqs:${type}`, async () => {
        const rows = await repository.listFaqsByType(type);
        return rows.map((row) => ({ id: row.id, type, title: row.title, content: row.content }));
      });
    },

    /** `GET /api/faqs` as sent: serialised once per content change. */
    async faqsJson(type: FaqType): Promise<string> {
      return cached(faqsJsonKey(type), async () => JSON.stringify({ faqs: await this.listFaqs(type) }));
    },

    /** `GET /api/legal/links` as sent: serialised once per content change; missing links are not kept. */
    async legalLinksJson(): Promise<string> {
      return cached(LEGAL_LINKS_JSON_KEY, async () => JSON.stringify(await this.getLegalLinks()));
    },

    /** The `legal/links` document, or null when it is missing or malformed. */
    async findLegalLinks(): Promise<LegalLinks | null> {
      const parsed = LegalLinksSchema.safeParse(await this.findSetting('legal/links'));
      return parsed.success ? parsed.data : null;
    },

    async getLegalLinks(): Promise<LegalLinks> {
      const links = await this.findLegalLinks();
      if (!links) throw new AppError('NOT_FOUND', 'The legal documents are not available right now.');
      return links;
    },

    // Settings are read per request: the pages that show them are kept whole by the page cache, and
    // the legal links' API answer is kept serialised (legalLinksJson).
    async findSetting(key: string): Promise<unknown> {
      return repository.findSetting(key);
    },

    async getDocument(slug: string): Promise<HostedDocument> {
      const document = await repository.findDocument(slug);
      if (!document) throw new AppError('NOT_FOUND', 'That document does not exist.');
      return document;
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
