import { escapeHtml } from '../../html.ts';
import type { HostedDocument } from './content.repository.ts';

/**
 * Renders a hosted legal document: plain text where a blank line starts a paragraph and a line
 * starting with "## " is a heading. Nothing the admin types becomes markup.
 */
export function renderDocumentBody(body: string): string {
  return body
    .replace(/\r\n/g, '\n')
    .split(/\n{2,}|\n(?=## )/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      if (block.startsWith('## ')) {
        const [heading = '', ...rest] = block.split('\n');
        const text = rest.join(' ').trim();
        return `<h2>${escapeHtml(heading.slice(3))}</h2>${text ? `\n<p>${escapeHtml(text)}</p>` : ''}`;
      }
      return `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`;
    })
    .join('\n');
}

export function renderDocumentPage(document: HostedDocument, companyName: string): string {
  const title = `${document.title} | ${companyName}`;
  return `<!doctype html>
<html lang="en-NZ">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(`${companyName} ${document.title}`)}">
<link rel="stylesheet" href="/documents.css">
</head>
<body>
<main>
<h1>${escapeHtml(document.title)}</h1>
${renderDocumentBody(document.body)}
</main>
</body>
</html>
`;
}
