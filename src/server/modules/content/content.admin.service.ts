import { FAQ_MESSAGES } from '../../../contracts/content-admin.ts';
import type { FaqInput, HostedDocumentDto, LegalLinksInput } from '../../../contracts/content-admin.schemas.ts';
import {
  type Faq,
  type FaqType,
  LEGAL_DOCUMENTS,
  type LegalDocument,
  type LegalLinks,
} from '../../../contracts/content.ts';
import { LegalLinksSchema } from '../../../contracts/content.schemas.ts';
import { AppError } from '../../errors.ts';
import type { AuditActor, AuditService } from '../audit/audit.service.ts';
import type { ContentAdminRepository, FaqRow } from './content.admin.repository.ts';

const LEGAL_LINKS_KEY = 'legal/links';

const toFaq = (row: FaqRow): Faq => ({ id: row.id, type: row.type, title: row.title, content: row.content });

/**
 * Editing what the public pages show: FAQ entries, the legal/links document and our hosted legal
 * documents. Input has passed the contracts' schemas (links: https or our own origin only, IN-04).
 * Every change is audited. The public content caches empty themselves when an edit route answers
 * (content.cache.ts), so nothing here invalidates them.
 */
export function createContentAdminService(deps: { repository: ContentAdminRepository; audit: AuditService }) {
  const { repository, audit } = deps;

  async function getFaq(id: number): Promise<FaqRow> {
    const row = await repository.findFaq(id);
    if (!row) throw new AppError('NOT_FOUND', FAQ_MESSAGES.notFound);
    return row;
  }

  return {
    async listFaqs(type: FaqType): Promise<Faq[]> {
      return (await repository.listFaqs(type)).map(toFaq);
    },

    async createFaq(actor: AuditActor, input: FaqInput): Promise<Faq> {
      const row = await repository.insertFaq(input);
      await audit.record({
        actor,
        action: 'faq.create',
        targetType: 'faq',
        targetId: row.id,
        details: { type: row.type, title: row.title },
      });
      return toFaq(row);
    },

    async updateFaq(actor: AuditActor, id: number, input: FaqInput): Promise<Faq> {
      const before = await getFaq(id);
      const row = await repository.updateFaq(id, input);
      if (!row) throw new AppError('NOT_FOUND', FAQ_MESSAGES.notFound);
      const changed = (['type', 'title', 'content'] as const).filter((key) => before[key] !== row[key]);
      await audit.record({
        actor,
        action: 'faq.update',
        targetType: 'faq',
        targetId: row.id,
        details: {
          type: row.type,
          title: row.title,
          changed,
          before: { type: before.type, title: before.title, content: before.content },
        },
      });
      return toFaq(row);
    },

    async deleteFaq(actor: AuditActor, id: number): Promise<Faq> {
      const row = await repository.deleteFaq(id);
      if (!row) throw new AppError('NOT_FOUND', FAQ_MESSAGES.notFound);
      // The whole entry goes into the log: it is the only copy left.
      await audit.record({
        actor,
        action: 'faq.delete',
        targetType: 'faq',
        targetId: row.id,
        details: { type: row.type, title: row.title, content: row.content },
      });
      return toFaq(row);
    },

    async reorderFaqs(actor: AuditActor, type: FaqType, ids: number[]): Promise<Faq[]> {
      if (!(await repository.reorderFaqs(type, ids))) throw new AppError('ABORTED', FAQ_MESSAGES.orderChanged);
      await audit.record({ actor, action: 'faq.reorder', targetType: 'faq', targetId: null, details: { type, ids } });
      return (await repository.listFaqs(type)).map(toFaq);
    },

    async getLegal(): Promise<{ links: LegalLinks | null; documents: HostedDocumentDto[] }> {
      const parsed = LegalLinksSchema.safeParse(await repository.findSetting(LEGAL_LINKS_KEY));
      const documents = (await repository.listDocuments())
        .filter((d): d is typeof d & { slug: LegalDocument } => (LEGAL_DOCUMENTS as readonly string[]).includes(d.slug))
        .map((d) => ({
          slug: d.slug,
          title: d.title,
          body: d.body,
          updatedAt: d.updatedAt.toISOString(),
          path: `/documents/${d.slug}`,
        }));
      return { links: parsed.success ? parsed.data : null, documents };
    },

    async saveLegalLinks(actor: AuditActor, links: LegalLinksInput): Promise<LegalLinks> {
      const before = LegalLinksSchema.safeParse(await repository.findSetting(LEGAL_LINKS_KEY));
      const value = { terms: links.terms, privacy: links.privacy };
      await repository.saveSetting(LEGAL_LINKS_KEY, value);
      await audit.record({
        actor,
        action: 'legal.links',
        targetType: 'settings',
        targetId: LEGAL_LINKS_KEY,
        details: { ...value, before: before.success ? before.data : null },
      });
      return value;
    },

    async saveDocument(
      actor: AuditActor,
      slug: LegalDocument,
      input: { title: string; body: string },
    ): Promise<HostedDocumentDto> {
      const row = await repository.saveDocument(slug, input);
      await audit.record({
        actor,
        action: 'document.update',
        targetType: 'document',
        targetId: slug,
        details: { title: row.title, characters: row.body.length },
      });
      return {
        slug,
        title: row.title,
        body: row.body,
        updatedAt: row.updatedAt.toISOString(),
        path: `/documents/${slug}`,
      };
    },
  };
}

export type ContentAdminService = ReturnType<typeof createContentAdminService>;
