// GET /api/sessions/{sessionId}/memory: what a session saw of memory (src/contract/sessionMemory.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { sessionMemoryEndpoints } from '../../contract/sessionMemory.js';
import { sendText } from '../errors.js';

export function sessionMemoryRoutes(app: FastifyInstance, viewer: Viewer): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/api/sessions/:sessionId/memory', { schema: sessionMemoryEndpoints.memory }, async (request, reply) => {
    const answer = await viewer.answers.sessionMemory(request.params.sessionId);
    return answer ?? sendText(reply, 404, 'Session not found');
  });
}
