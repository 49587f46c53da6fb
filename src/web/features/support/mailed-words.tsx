import { MAILED_TEXT } from '../../../contracts/conversation.ts';

type Part = { kind: 'text' | 'quote'; lines: string[] };

/**
 * The words of a message posted from a mail, as the server kept them (reply-text.ts): the
 * customer's lines, the quoted lines an answer between quotes keeps above it (`> ` lines, drawn as a
 * quote), and a forwarded message under its "Forwarded message from …" line, folded until opened.
 */
export function MailedWords({ text }: { text: string }) {
  const lines = text.split('\n');
  const forwardAt = lines.findIndex((line) => line.startsWith(`${MAILED_TEXT.forwardedFrom} `));
  const own = forwardAt === -1 ? lines : lines.slice(0, forwardAt);
  return (
    <div className="bubble__body bubble__body--mail">
      <Parts lines={own} />
      {forwardAt === -1 ? null : (
        <details className="bubble__forwarded">
          <summary>{lines[forwardAt]}</summary>
          <Parts lines={lines.slice(forwardAt + 1)} />
        </details>
      )}
    </div>
  );
}

function Parts({ lines }: { lines: string[] }) {
  const parts: Part[] = [];
  for (const line of lines) {
    const kind = line.startsWith('> ') || line === '>' ? 'quote' : 'text';
    const shown = kind === 'quote' ? line.replace(/^> ?/, '') : line;
    const last = parts.at(-1);
    if (last?.kind === kind) last.lines.push(shown);
    else parts.push({ kind, lines: [shown] });
  }
  return parts.map((part, i) => {
    const words = part.lines.join('\n').replace(/^\n+|\n+$/g, '');
    if (!words) return null;
    return part.kind === 'quote' ? (
      <blockquote key={i} className="bubble__quote">
        {words}
      </blockquote>
    ) : (
      <p key={i}>{words}</p>
    );
  });
}
