import { describe, expect, it } from 'vitest';
import { renderDocumentBody } from './document-html.ts';

describe('renderDocumentBody', () => {
  it('turns blank-line blocks into paragraphs and "## " lines into headings', () => {
    expect(renderDocumentBody('Intro line\n\n## 1. Scope\nApplies to all.\n\nLast.')).toBe(
      '<p>Intro line</p>\n<h2>1. Scope</h2>\n<p>Applies to all.</p>\n<p>Last.</p>',
    );
  });

  it('never lets typed text become markup', () => {
    expect(renderDocumentBody('<script>alert(1)</script> & "quotes"')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</p>',
    );
  });
});
