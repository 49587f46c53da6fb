import { and, asc, eq, sql } from 'drizzle-orm';
import type { FaqType } from '../../../contracts/content.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { documents, faqs, settings } from '../../db/schema.ts';

/**
 * Writes to the public content (FAQs, the legal/links document, our hosted documents). The public
 * pages read these tables on every request, so a change shows at once.
 */
export interface FaqRow {
  id: number;
  type: FaqType;
  title: string;
  content: string;
}

const faqColumns = { id: faqs.id, type: faqs.type, title: faqs.title, content: faqs.content };
const documentColumns = {
  slug: documents.slug,
  title: documents.title,
  body: documents.body,
  updatedAt: documents.updatedAt,
};

/** The next position at the end of a type's list, computed inside the statement that uses it. */
const endOf = (type: string) =>
  sql`(select coalesce(max(${faqs.position}) + 1, 0) from ${faqs} where ${faqs.type} = ${type})`;

export function createContentAdminRepository(db: AppDatabase) {
  return {
    async listFaqs(type: FaqType): Promise<FaqRow[]> {
      const rows = await db
        .select(faqColumns)
        .from(faqs)
        .where(eq(faqs.type, type))
        .orderBy(asc(faqs.position), asc(faqs.id));
      return rows as FaqRow[];
    },

    async findFaq(id: number): Promise<FaqRow | null> {
      const [row] = await db.select(faqColumns).from(faqs).where(eq(faqs.id, id));
      return (row as FaqRow | undefined) ?? null;
    },

    /** A new entry goes to the end of its type's list. */
    async insertFaq(input: { type: FaqType; title: string; content: string }): Promise<FaqRow> {
      const [row] = await db
        .insert(faqs)
        .values({ ...input, position: endOf(input.type) })
        .returning(faqColumns);
      return row as FaqRow;
    },

    /** An entry that changes type moves to the end of its new list. Null when there is no such entry. */
    async updateFaq(id: number, input: { type: FaqType; title: string; content: string }): Promise<FaqRow | null> {
      const [row] = await db
        .update(faqs)
        .set({
          ...input,
          position: sql`case when ${faqs.type} = ${input.type} then ${faqs.position} else ${endOf(input.type)} end`,
          updatedAt: sql`now()`,
        })
        .where(eq(faqs.id, id))
        .returning(faqColumns);
      return (row as FaqRow | undefined) ?? null;
    },

    async deleteFaq(id: number): Promise<FaqRow | null> {
      const [row] = await db.delete(faqs).where(eq(faqs.id, id)).returning(faqColumns);
      return (row as FaqRow | undefined) ?? null;
    },

    /**
     * Puts a type's entries in the given order, only if `ids` are exactly that type's entries now
     * (checked under a lock, so an entry added meanwhile is never left out of the order). False when
     * they are not.
     */
    async reorderFaqs(type: FaqType, ids: number[]): Promise<boolean> {
      return db.transaction(async (tx) => {
        const current = await tx.select({ id: faqs.id }).from(faqs).where(eq(faqs.type, type)).for('update');
        const known = new Set(current.map((r) => r.id));
        if (known.size !== ids.length || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id)))
          return false;
        for (const [position, id] of ids.entries()) {
          await tx
            .update(faqs)
            .set({ position, updatedAt: sql`now()` })
            .where(and(eq(faqs.id, id), eq(faqs.type, type)));
        }
        return true;
      });
    },

    async findSetting(key: string): Promise<unknown> {
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
      return row?.value ?? null;
    },

    async saveSetting(key: string, value: unknown): Promise<void> {
      await db
        .insert(settings)
        .values({ key, value })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
    },

    async listDocuments() {
      return db.select(documentColumns).from(documents).orderBy(asc(documents.slug));
    },

    /** Creates the document if a deployment lacks it (the seed normally makes both). */
    async saveDocument(slug: string, input: { title: string; body: string }) {
      const [row] = await db
        .insert(documents)
        .values({ slug, ...input })
        .onConflictDoUpdate({ target: documents.slug, set: { ...input, updatedAt: sql`now()` } })
        .returning(documentColumns);
      return row!;
    },
  };
}

export type ContentAdminRepository = ReturnType<typeof createContentAdminRepository>;
