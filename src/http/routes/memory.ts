// GET /api/memory, /api/memory/content, /api/memory/search.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { sendText } from '../errors.js';
import { sendSerialized } from '../json.js';
import { endpoints } from '../../contract/endpoints.js';
import { sendContent } from '../contentAnswer.js';

export function memoryRoutes(app: FastifyInstance, viewer: Viewer): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  // The store hands out the same listing object until its cache expires: serialize each listing once.
  let listed: object | null = null;
  let body = '';
  typed.get('/api/memory', { schema: endpoints.memory }, async (_request, reply) => {
    const listing = await viewer.memory.list();
    if (listing !== listed) {
      body = JSON.stringify(listing);
      listed = listing;
    }
    return sendSerialized(reply, body);
  });

  typed.get('/api/memory/content', { schema: endpoints.memoryContent }, async (request, reply) => {
    const opened = await viewer.memory.open(request.query.id);
    if (opened === null) return sendText(reply, 404, 'Memory not found');
    return sendContent(reply, opened);
  });

  typed.get('/api/memory/search', { schema: endpoints.memorySearch }, async (request) => ({ ids: await viewer.memory.search(request.query.q) }));
}
