import type { FastifyRequest } from 'fastify';
import { DESK_TEXT } from '../../../contracts/desk.ts';
import { AppError } from '../../errors.ts';
import { principalOf } from '../../http/endpoint-route.ts';
import { can, type Principal } from '../../plugins/access.ts';

/**
 * Who is assigning, once it is clear they may give the ticket to that assignee: anyone who may
 * change tickets takes one ('me' or their own id) or lets it go (null); handing it to a colleague
 * needs `tickets.assign-others` (a lead's, an admin's; src/contracts/roles.ts).
 */
export function assignerOf(request: FastifyRequest, assignee: string | null): Principal {
  const principal = principalOf(request);
  const toOther = assignee !== null && assignee !== 'me' && assignee !== principal.userId;
  if (toOther && !can(principal, 'tickets.assign-others'))
    throw new AppError('PERMISSION_DENIED', DESK_TEXT.assignOthersRefused);
  return principal;
}
