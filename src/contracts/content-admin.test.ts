import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAllowedLegalLink } from './content-admin.ts';
import { LegalLinksInputSchema } from './content-admin.schemas.ts';

// A hundred generated addresses per property: CPU work, which a loaded 2-core machine can stretch past vitest's 5 s.
describe('legal links an admin may set (IN-04)', { timeout: 30_000 }, () => {
  it('accepts any https web address', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }), (url) =>
        isAllowedLegalLink(url),
      ),
    );
  });

  it('refuses every other scheme, whatever its case', () => {
    const scheme = fc.constantFrom('http', 'javascript', 'data', 'vbscript', 'file', 'ftp', 'blob');
    const casing = fc.array(fc.boolean(), { minLength: 12, maxLength: 12 });
    fc.assert(
      fc.property(scheme, casing, fc.webUrl(), (name, upper, url) => {
        const mixed = [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        return !isAllowedLegalLink(url.replace(/^[a-z]+:/, `${mixed}:`));
      }),
    );
  });

  it('accepts paths on this site, but not ones a browser reads as another host', () => {
    for (const ok of ['/documents/terms', '/legal?doc=privacy#top', '/a/b/../c'])
      expect(isAllowedLegalLink(ok)).toBe(true);
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      '/\\/evil.example',
      'documents/terms',
      './terms',
      '',
      '/ space',
      '/tab\there',
      '/new\nline',
    ]) {
      expect(isAllowedLegalLink(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('refuses control characters and spaces anywhere, and credentials in the address', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['https'] }),
        fc.nat(),
        fc.constantFrom('\u0000', '\n', '\r', '\t', ' ', '\u2028', '\u00a0'),
        (url, at, ch) => {
          const i = at % (url.length + 1);
          return !isAllowedLegalLink(url.slice(0, i) + ch + url.slice(i));
        },
      ),
    );
    expect(isAllowedLegalLink('https://user@legal.example.nz/')).toBe(false);
  });

  it('trims the value before checking it, through the schema both sides use', () => {
    expect(
      LegalLinksInputSchema.parse({ terms: '  https://legal.example.nz/t ', privacy: ' /documents/privacy' }),
    ).toEqual({
      terms: 'https://legal.example.nz/t',
      privacy: '/documents/privacy',
    });
    expect(LegalLinksInputSchema.safeParse({ terms: '\tjavascript:alert(1)', privacy: '/p' }).success).toBe(false);
  });
});
