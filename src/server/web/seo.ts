import type { FastifyInstance } from 'fastify';

/** Public pages listed for search engines; the support and admin areas are not indexed. */
export const PUBLIC_PAGES = [
  '/',
  '/about',
  '/faqs',
  '/faqs?type=sender',
  '/faqs?type=traveller',
  '/legal',
  '/legal?doc=privacy',
  '/register',
];

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function seoRoutes(app: FastifyInstance, options: { publicBaseUrl: string }) {
  app.get('/robots.txt', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /support\nDisallow: /admin\n\nSitemap: ${options.publicBaseUrl}/sitemap.xml\n`,
      ),
  );

  app.get('/sitemap.xml', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const urls = PUBLIC_PAGES.map((p) => `  <url><loc>${xmlEscape(options.publicBaseUrl + p)}</loc></url>`).join('\n');
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
      );
  });
}
