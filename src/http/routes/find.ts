// GET /api/find: the ranked search (src/contract/find.ts, src/domain/find/).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { findEndpoints } from '../../contract/find.js';
import { isFindQueryError } from '../../domain/find/finder.js';
import { sendText } from '../errors.js';

export function findRoutes(app: FastifyInstance, viewer: Viewer): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get('/api/find', { schema: findEndpoints.find }, async (request, reply) => {
    const { q, limit, offset } = request.query;
    // A palette asks as one types: a query whose connection closed before its answer stops working.
    const gone = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.once('close', onClose);
    try {
      return await viewer.finder.find(q, { limit: Number(limit), offset: Number(offset), signal: gone.signal });
    } catch (error) {
      if (isFindQueryError(error)) return sendText(reply, 400, `Bad request: ${error.message}`);
      // Nobody is left to read an answer.
      if (gone.signal.aborted) return reply;
      throw error;
    } finally {
      reply.raw.off('close', onClose);
    }
  });
}
