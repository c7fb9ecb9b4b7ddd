// GET /api/costs: cost and active time across the home (src/contract/costs.ts, domain/outcome/costs.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { costEndpoints } from '../../contract/costs.js';
import { sendText } from '../errors.js';

/** A bound in milliseconds; a date alone as `before` covers its whole day. Undefined: none; NaN: not a date. */
function bound(value: string | undefined, endOfDay: boolean): number | null {
  if (value === undefined || value === '') return null;
  const t = Date.parse(value);
  return endOfDay && /^\d{4}-\d{2}-\d{2}$/.test(value) ? t + 86_399_999 : t;
}

export function costRoutes(app: FastifyInstance, viewer: Viewer): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/api/costs', { schema: costEndpoints.costs }, async (request, reply) => {
    const after = bound(request.query.after, false);
    const before = bound(request.query.before, true);
    if (Number.isNaN(after) || Number.isNaN(before)) return sendText(reply, 400, 'Bad request: after and before must be dates such as 2026-11-01 or ISO date-times');
    return viewer.answers.costs({ by: request.query.by ?? 'day', after, before });
  });
}
