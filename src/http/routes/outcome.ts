// GET /api/plans/{filename}/outcome: what happened after a plan was approved (src/contract/outcome.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { outcomeEndpoints } from '../../contract/outcome.js';
import { sendText } from '../errors.js';

export function outcomeRoutes(app: FastifyInstance, viewer: Viewer): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/api/plans/:filename/outcome', { schema: outcomeEndpoints.outcome }, async (request, reply) => {
    const outcome = await viewer.answers.planOutcome(request.params.filename);
    return outcome ?? sendText(reply, 404, 'Plan not found');
  });
}
