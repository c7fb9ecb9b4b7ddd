// GET /api/sessions/{sessionId}/transcript: a session's conversation, paged (src/contract/transcript.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { transcriptEndpoints } from '../../contract/transcript.js';
import { sendText } from '../errors.js';

export function transcriptRoutes(app: FastifyInstance, viewer: Viewer): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/api/sessions/:sessionId/transcript', { schema: transcriptEndpoints.transcript }, async (request, reply) => {
    const { cursor, limit, agent } = request.query;
    const page = await viewer.answers.sessionTranscript(request.params.sessionId, agent === '' ? null : agent, Number(cursor), Number(limit));
    return page ?? sendText(reply, 404, 'Session not found');
  });
}
