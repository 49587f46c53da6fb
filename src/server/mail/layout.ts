import { escapeHtml } from '../html.ts';

/**
 * One look for every message: a plain-text body and an HTML body with the same words, both
 * carrying the company name. HTML is escaped here, so callers pass plain strings.
 */
export interface MailContent {
  companyName: string;
  heading: string;
  /** The first line of the words, e.g. "Kia ora Aroha," (greetingFor). */
  greeting?: string;
  paragraphs: string[];
  /** Words someone wrote (a support message), shown quoted with their line breaks kept. */
  quotes?: string[];
  action?: { label: string; url: string };
  /** Shown after the action, e.g. how long a link lasts or what to do if it was not you. */
  notes?: string[];
}

/**
 * How a mail to a person opens: by the name they gave, or a friendly word without one (never their
 * email address, which is not what anyone calls themselves).
 */
export function greetingFor(name: string | null | undefined): string {
  const trimmed = name?.trim();
  return trimmed ? `Kia ora ${trimmed},` : 'Kia ora,';
}

/**
 * The From of mail in the support team's name: "Sam at Bagspace" <support address>, or
 * "Bagspace Support" when the agent gave no name. Quotes and backslashes are left out of the name,
 * so it cannot end the quoted display name early (names hold no control characters).
 */
export function supportFrom(companyName: string, address: string, agentName: string | null | undefined): string {
  const clean = (value: string) => value.replace(/["\\]/g, '').trim();
  const agent = agentName ? clean(agentName) : '';
  const company = clean(companyName);
  return `"${agent ? `${agent} at ${company}` : `${company} Support`}" <${address}>`;
}

export function renderMail(content: MailContent): { text: string; html: string } {
  const { companyName, heading, greeting, quotes = [], action, notes = [] } = content;
  const paragraphs = greeting ? [greeting, ...content.paragraphs] : content.paragraphs;
  const text = [
    companyName,
    '',
    heading,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...quotes.flatMap((q) => [...q.split(/\r?\n/).map((line) => `> ${line}`), '']),
    ...(action ? [`${action.label}:`, action.url, ''] : []),
    ...notes.flatMap((n) => [n, '']),
    `— The ${companyName} team`,
  ].join('\n');

  const p = (value: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(value)}</p>`;
  const html = `<!doctype html>
<html lang="en-NZ">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(heading)}</title></head>
<body style="margin:0;padding:24px;background:#fbfaf7;font-family:Arial,Helvetica,sans-serif;color:#1f2a37">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d9e1ea;border-radius:12px">
<tr><td style="padding:20px 28px;background:#0b3a5b;border-radius:12px 12px 0 0;color:#ffffff;font-size:20px;font-weight:bold">${escapeHtml(companyName)}</td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;font-size:22px;color:#082b44">${escapeHtml(heading)}</h1>
${paragraphs.map(p).join('\n')}
${quotes.map((q) => `<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid #d9e1ea;background:#f5f7fa;white-space:pre-wrap;line-height:1.5">${escapeHtml(q)}</blockquote>`).join('\n')}
${
  action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 22px;background:#0b3a5b;color:#ffffff;text-decoration:none;border-radius:999px;font-weight:bold">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#4a5868">If the button does not work, copy this address into your browser:<br><a href="${escapeHtml(action.url)}" style="color:#1d5f8c;word-break:break-all">${escapeHtml(action.url)}</a></p>`
    : ''
}
${notes.map(p).join('\n')}
<p style="margin:24px 0 0;color:#4a5868">— The ${escapeHtml(companyName)} team</p>
</td></tr>
</table>
</body>
</html>`;
  return { text, html };
}
