/**
 * Text sent as `format=flowed` (RFC 3676), unflowed: a line that ends in a space continues on the
 * next line of the same quote depth. mailparser's decoder joins lines whatever their quote marks, so
 * an answer typed under a quoted line that ended in a soft break became part of the quote; here a
 * change of quote depth always ends the paragraph (RFC 3676, section 4.5), and the quote marks stay on each line.
 */
export function unflow(text: string, delSp: boolean): string {
  const out: string[] = [];
  let open: { depth: number; text: string } | null = null;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const marks = /^>+/.exec(raw)?.[0] ?? '';
    const depth = marks.length;
    // Space-stuffing (section 4.4): one space after the quote marks, or at the start, belongs to no one.
    let line = raw.slice(depth);
    if (line.startsWith(' ')) line = line.slice(1);
    const signature = line === '-- ';
    const soft = !signature && line.endsWith(' ');
    if (open && open.depth === depth) open.text += line;
    else {
      if (open) out.push(quoted(open));
      open = { depth, text: line };
    }
    if (soft) {
      if (delSp) open.text = open.text.slice(0, -1);
    } else {
      out.push(quoted(open));
      open = null;
    }
  }
  if (open) out.push(quoted(open));
  return out.join('\n');
}

function quoted({ depth, text }: { depth: number; text: string }): string {
  return depth === 0 ? text : `${'>'.repeat(depth)} ${text}`;
}
