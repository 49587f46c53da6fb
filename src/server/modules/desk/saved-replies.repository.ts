import { asc, eq, sql } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import { savedReplies } from '../../db/schema.ts';

export type SavedReplyRow = typeof savedReplies.$inferSelect;

/** The team's saved replies (owned by the support module). A taken title is a unique violation. */
export function createSavedRepliesRepository(db: AppDatabase) {
  return {
    list(): Promise<SavedReplyRow[]> {
      return db
        .select()
        .from(savedReplies)
        .orderBy(asc(sql`lower(${savedReplies.title})`));
    },

    async find(id: string): Promise<SavedReplyRow | null> {
      const [row] = await db.select().from(savedReplies).where(eq(savedReplies.id, id));
      return row ?? null;
    },

    async insert(input: { title: string; body: string; actions: object }): Promise<SavedReplyRow> {
      const [row] = await db.insert(savedReplies).values(input).returning();
      return row!;
    },

    async update(id: string, input: { title: string; body: string; actions: object }): Promise<SavedReplyRow | null> {
      const [row] = await db
        .update(savedReplies)
        .set({ ...input, updatedAt: new Date() })
        .where(eq(savedReplies.id, id))
        .returning();
      return row ?? null;
    },

    async remove(id: string): Promise<SavedReplyRow | null> {
      const [row] = await db.delete(savedReplies).where(eq(savedReplies.id, id)).returning();
      return row ?? null;
    },
  };
}

export type SavedRepliesRepository = ReturnType<typeof createSavedRepliesRepository>;
