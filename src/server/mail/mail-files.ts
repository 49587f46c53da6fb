import type { ParsedMail } from 'mailparser';

/**
 * The files of a received mail as we name and list them (modules/inbound, modules/side-conversations):
 * each by its place among the mail's attachments, where `GET /api/admin/mail/incoming/:inboundId/files/:fileIndex`
 * reads it again from the kept mail.
 */

/** A file's name as the mail gave it: no folder, no control or format characters, at most 150 characters. */
export function mailFileName(filename: string | undefined): string {
  return (
    (filename ?? '')
      .split(/[/\\]/)
      .pop()!
      .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
      .trim()
      .slice(0, 150) || 'file'
  );
}

/**
 * The files someone sent with a mail, by name, size and place. Pictures a mail program put inside the
 * HTML (a signature's logo: multipart/related) are not files anyone sent.
 */
export function filesOfMail(
  parsed: Pick<ParsedMail, 'attachments'>,
): Array<{ name: string; size: number; index: number }> {
  return parsed.attachments.flatMap((file, index) =>
    file.related ? [] : [{ name: mailFileName(file.filename), size: file.size, index }],
  );
}
