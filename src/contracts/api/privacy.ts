import {
  DeleteAccountBodySchema,
  DeleteAccountResultSchema,
  DeletionInfoSchema,
  EraseResultSchema,
} from '../account-deletion.schemas.ts';
import { endpoint } from '../endpoint.ts';
import { DataExportSchema } from '../privacy.schemas.ts';
import { UserParamsSchema } from '../users.schemas.ts';

/** The person's own data (docs/product.md §2.12), deleting one's account and the admin's 'Erase now' (§2.14). */
const ERRORS = [400, 401, 403, 404] as const;

export const privacyApi = {
  exportData: endpoint({
    method: 'GET',
    path: '/api/account/export',
    access: 'user',
    tags: ['account'],
    summary:
      'Everything we hold about the signed-in person, as one JSON file (docs/data-export.md); a download in a browser',
    answers: { 200: DataExportSchema },
    errors: [401, 404],
  }),
  deletionInfo: endpoint({
    method: 'GET',
    path: '/api/account/delete',
    access: 'user',
    tags: ['account'],
    summary: 'What deleting the account would mean now: the date its data would be erased',
    answers: { 200: DeletionInfoSchema },
    errors: [401],
  }),
  deleteAccount: endpoint({
    method: 'POST',
    path: '/api/account/delete',
    access: 'user',
    tags: ['account'],
    summary:
      'Delete the signed-in account, confirmed with its password: disabled and signed out at once, erased after ERASE_AFTER_DAYS',
    body: DeleteAccountBodySchema,
    answers: { 200: DeleteAccountResultSchema },
    errors: [...ERRORS, 409, 429],
  }),
  eraseNow: endpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/erase',
    access: 'privacy.manage',
    tags: ['admin'],
    summary: 'Erase an account whose owner asked to delete it now, instead of after ERASE_AFTER_DAYS',
    params: UserParamsSchema,
    answers: { 200: EraseResultSchema },
    errors: [...ERRORS, 409],
  }),
} as const;
