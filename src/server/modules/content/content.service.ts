import type { Faq, FaqType, LegalLinks } from '../../../contracts/content.ts';
import { LegalLinksSchema } from '../../../contracts/content.schemas.ts';
import { AppError } from '../../errors.ts';
import type { ContentRepository, HostedDocument } from './content.repository.ts';

export function createContentService(repository: ContentRepository) {
  return {
    async listFaqs(type: FaqType): Promise<Faq[]> {
      const rows = await repository.listFaqsByType(type);
      return rows.map((row) => ({ id: row.id, type, title: row.title, content: row.content }));
    },

    /** The `legal/links` document, or null when it is missing or malformed. */
    async findLegalLinks(): Promise<LegalLinks | null> {
      const parsed = LegalLinksSchema.safeParse(await repository.findSetting('legal/links'));
      return parsed.success ? parsed.data : null;
    },

    async getLegalLinks(): Promise<LegalLinks> {
      const links = await this.findLegalLinks();
      if (!links) throw new AppError('NOT_FOUND', 'The legal documents are not available right now.');
      return links;
    },

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
