import { EmailSchema, NewPasswordSchema } from './auth.schemas.ts';
import { SETUP_TEXT } from './setup.ts';
import { z } from './zod.ts';

/**
 * The setup form's fields: the sign-up rules, and the password twice (the server checks the rest).
 * Checked by /setup's action, and in the browser once the form is used
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */
export const SetupFormSchema = z
  .object({ email: EmailSchema, password: NewPasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: SETUP_TEXT.passwordsDiffer,
  });
