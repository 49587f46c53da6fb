import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from '../../../contracts/zod.ts';
import { ATTACHMENT_LIMITS, ATTACHMENT_TEXT } from '../../../contracts/attachments.ts';
import { fieldErrors } from '../../../contracts/field-errors.ts';
import { SUPPORT_TEXT } from '../../../contracts/support.ts';
import { CLAIM_LIMITS } from '../../../contracts/claims.ts';
import { AppError } from '../../errors.ts';
import { formParts } from '../../http/form-parts.ts';

/**
 * Multipart limits of a message with files (UP-06): a few text fields, five files and one more
 * (so the sixth is refused in our words, not the parser's), each cut one byte past 10 MB. A new
 * ticket's form may carry a claim's evidence: its fields and ten files (CLAIM_MULTIPART_LIMITS).
 */
export const MESSAGE_MULTIPART_LIMITS = {
  fieldNameSize: 100,
  fieldSize: 24 * 1024,
  fields: 10,
  files: ATTACHMENT_LIMITS.filesPerMessage + 1,
  parts: 20,
  headerPairs: 20,
  fileSize: ATTACHMENT_LIMITS.maxBytes + 1,
} as const;

export const CLAIM_MULTIPART_LIMITS = {
  ...MESSAGE_MULTIPART_LIMITS,
  fields: 16,
  files: CLAIM_LIMITS.evidenceFiles + 1,
  parts: 30,
} as const;

/**
 * Runs `send` with a message form that came with files: the files are received first (checked,
 * cleaned, stored as pending by modules/attachments; `mayAttach` runs before the first), the text
 * fields are checked with `schema`, and whatever `send` did not claim is removed afterwards, so a
 * refused or repeated send leaves nothing stored.
 */
export async function withMessageForm<S extends z.ZodType, T>(
  app: FastifyInstance,
  request: FastifyRequest,
  options: {
    userId: string;
    schema: S;
    /** The text field that may be empty when files come with it. */
    textField?: string;
    mayAttach?: () => Promise<void>;
    /** More files than a message's five (a claim's evidence), and the words that refuse one more. */
    most?: { files: number; refusal: string };
  },
  send: (values: z.output<S>, attachmentIds: string[]) => Promise<T>,
): Promise<T> {
  const form = await app.attachments.receive(
    options.userId,
    formParts(
      request,
      {
        tooManyParts: ATTACHMENT_TEXT.tooMany,
        invalidForm: ATTACHMENT_TEXT.unreadableForm,
        unreadableForm: ATTACHMENT_TEXT.unreadableForm,
      },
      options.most ? CLAIM_MULTIPART_LIMITS : undefined,
    ),
    options.mayAttach,
    options.most,
  );
  try {
    const parsed = options.schema.safeParse(form.fields);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      throw new AppError('INVALID_ARGUMENT', Object.values(fields)[0] ?? SUPPORT_TEXT.fieldRequired, { fields });
    }
    const values = parsed.data as z.output<S>;
    const text = options.textField ? (values as Record<string, unknown>)[options.textField] : undefined;
    if (options.textField && text === '' && form.attachmentIds.length === 0) {
      throw new AppError('INVALID_ARGUMENT', SUPPORT_TEXT.fieldRequired, {
        fields: { [options.textField]: SUPPORT_TEXT.fieldRequired },
      });
    }
    return await send(values, form.attachmentIds);
  } finally {
    await app.attachments.discard(form.attachmentIds);
  }
}
