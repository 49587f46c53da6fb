import { LABEL_LIMITS, LABEL_NAME_MAX, LABEL_TEXT } from './labels.ts';
import { z } from './zod.ts';

export const LabelSchema = z.object({ id: z.uuid(), name: z.string() });
export type Label = z.infer<typeof LabelSchema>;

/** A label in the team's list: with how many tickets have it. */
export const LabelWithCountSchema = LabelSchema.extend({ tickets: z.number() });
export const LabelListSchema = z.object({ labels: z.array(LabelWithCountSchema) });
export const LabelResultSchema = z.object({ label: LabelSchema });

export const LabelParamsSchema = z.object({ labelId: z.string().max(64) });

export const LabelBodySchema = z.object({
  name: z
    .string({ error: LABEL_TEXT.nameRequired })
    .trim()
    .min(1, LABEL_TEXT.nameRequired)
    .max(LABEL_NAME_MAX, LABEL_TEXT.nameTooLong),
});

/** A ticket's labels, all of them (the ones not named come off). */
export const TicketLabelsBodySchema = z.object({
  labelIds: z.array(z.uuid({ error: LABEL_TEXT.unknownLabel })).max(LABEL_LIMITS.perTicket, LABEL_TEXT.tooManyOnTicket),
});
export const TicketLabelsResultSchema = z.object({ labels: z.array(LabelSchema) });
