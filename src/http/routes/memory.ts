// GET /api/memory, /api/memory/content, /api/memory/search.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { sendText } from '../errors.js';
import { CachedJson } from '../cachedJson.js';
import { endpoints } from '../../contract/endpoints.js';
import { sendContent } from '../contentAnswer.js';

export function memoryRoutes(app: FastifyInstance, viewer: Viewer): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  // The store hands out the same listing object until its cache expires: each listing is serialized
  // (and gzipped, on demand) once, and is a version of the cached answer, with its own ETag.
  let listed: object | null = null;
  let version = 0;
  const memoryList = new CachedJson(() => version, () => Buffer.from(JSON.stringify(listed)));
  typed.get('/api/memory', { schema: endpoints.memory }, async (request, reply) => {
    const listing = await viewer.memory.list();
    if (listing !== listed) {
      listed = listing;
      version += 1;
    }
    return memoryList.send(request, reply);
  });

  typed.get('/api/memory/content', { schema: endpoints.memoryContent }, async (request, reply) => {
    const opened = await viewer.memory.open(request.query.id);
    if (opened === null) return sendText(reply, 404, 'Memory not found');
    return sendContent(reply, opened);
  });

  typed.get('/api/memory/search', { schema: endpoints.memorySearch }, async (request) => ({ ids: await viewer.memory.search(request.query.q) }));
}
