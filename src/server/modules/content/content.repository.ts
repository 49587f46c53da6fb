import { asc, eq } from 'drizzle-orm';
import type { FaqType } from '../../../contracts/content.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { documents, faqs, settings } from '../../db/schema.ts';

export interface HostedDocument {
  slug: string;
  title: string;
  body: string;
  updatedAt: Date;
}

export function createContentRepository(db: AppDatabase) {
  return {
    async listFaqsByType(type: FaqType) {
      return db
        .select({ id: faqs.id, type: faqs.type, title: faqs.title, content: faqs.content })
        .from(faqs)
        .where(eq(faqs.type, type))
        .orderBy(asc(faqs.position), asc(faqs.id));
    },

    async findSetting(key: string): Promise<unknown> {
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
      return row?.value ?? null;
    },

    async findDocument(slug: string): Promise<HostedDocument | null> {
      const [row] = await db
        .select({ slug: documents.slug, title: documents.title, body: documents.body, updatedAt: documents.updatedAt })
        .from(documents)
        .where(eq(documents.slug, slug));
      return row ?? null;
    },
  };
}

export type ContentRepository = ReturnType<typeof createContentRepository>;
