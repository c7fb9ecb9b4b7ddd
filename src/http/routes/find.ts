// GET /api/find: the ranked search (src/contract/find.ts, src/domain/find/).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { findEndpoints } from '../../contract/find.js';
import { FindQueryError } from '../../domain/find/finder.js';
import { sendText } from '../errors.js';

export function findRoutes(app: FastifyInstance, viewer: Viewer): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get('/api/find', { schema: findEndpoints.find }, async (request, reply) => {
    const { q, limit, offset } = request.query;
    try {
      return await viewer.finder.find(q, { limit: Number(limit), offset: Number(offset) });
    } catch (error) {
      if (error instanceof FindQueryError) return sendText(reply, 400, `Bad request: ${error.message}`);
      throw error;
    }
  });
}
