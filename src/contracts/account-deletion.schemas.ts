import { z } from './zod.ts';
import { DELETION_TEXT } from './account-deletion.ts';

/**
 * The zod schemas of account-deletion.ts: what the API and the forms check, on the server and in a form
 * once it is used. The pages' texts and constants are in account-deletion.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
export const DeleteAccountBodySchema = z.object({
  password: z.string({ error: DELETION_TEXT.passwordMissing }).min(1, DELETION_TEXT.passwordMissing).max(1024),
});

export const DeleteAccountResultSchema = z.object({
  message: z.string(),
  /** When the personal data will be erased (ISO 8601). */
  eraseAfter: z.string(),
  ticketNo: z.number().int(),
});
export type DeleteAccountResult = z.infer<typeof DeleteAccountResultSchema>;

/** What the account's own pages show before deleting: the date erasure would happen if asked now. */
export const DeletionInfoSchema = z.object({ eraseAfterDays: z.number().int(), eraseOn: z.string() });
export type DeletionInfo = z.infer<typeof DeletionInfoSchema>;

export const KeepForRecordBodySchema = z.object({ keep: z.boolean({ error: 'keep must be true or false' }) });

export const EraseResultSchema = z.object({ message: z.string(), eraseAfter: z.string() });
