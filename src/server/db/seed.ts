import { eq, sql } from 'drizzle-orm';
import type { AppDatabase } from './connection.ts';
import { documents, faqs, settings } from './schema.ts';
import { DEMO_DOCUMENTS, DEMO_FAQS } from './seed-content.ts';

/** Where the seeded `legal/links` point: our own hosted documents (same origin, so framable). */
export const OWN_DOCUMENT_PATHS = { terms: '/documents/terms', privacy: '/documents/privacy' } as const;

/**
 * Seeds a new database, once: the settings documents and our own legal documents always, the demo
 * FAQs when `demo` is set. The `seed/content` marker is written in the same transaction, so content
 * an admin later deletes is not brought back by a restart.
 */
export async function seedContent(db: AppDatabase, options: { companyName: string; demo: boolean }): Promise<boolean> {
  // A restart's usual case, in one read: seeded before. The insert below still decides a race.
  const [seeded] = await db.select({ key: settings.key }).from(settings).where(eq(settings.key, 'seed/content'));
  if (seeded) return false;
  const fill = (text: string) => text.replaceAll('{company}', options.companyName);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(settings)
      .values({ key: 'seed/content', value: { seededAt: new Date().toISOString(), demo: options.demo } })
      .onConflictDoNothing()
      .returning({ key: settings.key });
    if (claimed.length === 0) return false;
    await tx
      .insert(settings)
      .values([
        { key: 'legal/links', value: OWN_DOCUMENT_PATHS },
        { key: 'companies/links', value: { partnerGuide: '/faqs?type=general' } },
      ])
      .onConflictDoNothing();
    await tx
      .insert(documents)
      .values(DEMO_DOCUMENTS.map((d) => ({ slug: d.slug, title: d.title, body: fill(d.body) })))
      .onConflictDoNothing();
    const [{ count } = { count: 0 }] = await tx.select({ count: sql<number>`count(*)::int` }).from(faqs);
    if (options.demo && count === 0) {
      await tx
        .insert(faqs)
        .values(
          DEMO_FAQS.map((f, i) => ({ type: f.type, title: fill(f.title), content: fill(f.content), position: i })),
        );
    }
    return true;
  });
}
