import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from '../../../contracts/zod.ts';
import { contentApi } from '../../../contracts/api/content.ts';
import { LegalDocumentSchema } from '../../../contracts/content.schemas.ts';
import { route } from '../../http/endpoint-route.ts';
import { FAQ_TYPES } from '../../../contracts/content.ts';
import { type PreparedAnswer, type PreparedSource, preparedBody } from '../../plugins/prepared.ts';
import type { ContentCache } from './content.cache.ts';
import { faqsJsonKey, LEGAL_LINKS_JSON_KEY, type ContentService } from './content.service.ts';
import { renderDocumentPage } from './document-html.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The public API's answers that are the same for everyone, by exact address: once the full way has
 * serialised one (and the content cache holds it), the next request for that address is answered
 * before any per-request work (plugins/prepared.ts). Any other spelling of the address (another
 * query, an extra parameter) takes the full way, validation included.
 */
export function preparedContentAnswers(cache: Pick<ContentCache, 'peek'>): PreparedSource {
  const keys = new Map<string, string>([
    ...FAQ_TYPES.map((type) => [`${contentApi.faqs.path}?type=${type}`, faqsJsonKey(type)] as const),
    [contentApi.legalLinks.path, LEGAL_LINKS_JSON_KEY],
  ]);
  // The full way's route for each address: the metrics count a prepared answer under it.
  const routes = new Map<string, string>([
    ...FAQ_TYPES.map((type) => [faqsJsonKey(type), contentApi.faqs.path] as const),
    [LEGAL_LINKS_JSON_KEY, contentApi.legalLinks.path],
  ]);
  // One answer per serialised string, made again only when the content cache holds a new one.
  const made = new Map<string, { json: string; answer: PreparedAnswer }>();
  return (url) => {
    const key = keys.get(url);
    if (key === undefined) return undefined;
    const json = cache.peek<string>(key);
    if (json === undefined) return undefined;
    const last = made.get(key);
    if (last?.json === json) return last.answer;
    const answer: PreparedAnswer = {
      headers: [['content-type', JSON_TYPE]],
      ...preparedBody(json),
      compress: false,
      route: routes.get(key)!,
    };
    made.set(key, { json, answer });
    return answer;
  };
}

export async function contentRoutes(
  app: FastifyInstance,
  options: { content: ContentService; cache?: Pick<ContentCache, 'peek'>; companyName: string },
) {
  const { content } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  if (options.cache) app.preparedAnswers.add(preparedContentAnswers(options.cache));

  // Serialised once per content change (content.cache.ts); a string is sent as is.
  route(app, contentApi.faqs, async (request, reply) =>
    reply.type(JSON_TYPE).send((await content.faqsJson(request.query.type)) as never),
  );

  route(app, contentApi.legalLinks, async (_request, reply) =>
    reply.type(JSON_TYPE).send((await content.legalLinksJson()) as never),
  );

  // Our own hosted legal documents: plain HTML, framable by our own origin only (the /legal page).
  api.get('/documents/:slug', {
    config: { access: 'public', framing: 'self' },
    schema: { hide: true, params: z.object({ slug: LegalDocumentSchema }) },
    handler: async (request, reply) => {
      const document = await content.getDocument(request.params.slug);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(renderDocumentPage(document, options.companyName));
    },
  });
}
