// GET /api/memory/health, POST /api/memory/fix, POST /api/memory/fix-all, POST /api/memory/undo, GET /api/memory/fixes, GET /api/memory/trash
// (extensions).
// The POSTs change the user's files: the server's perimeter applies the same-origin rule to them as to
// every non-GET request (security rule 3), and only JSON bodies are parsed (rule 4). A malformed body's
// 400 names the field and what it accepts (validationMessage.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import type { Outcome } from '../../domain/memory/care/memoryCare.js';
import { sendText } from '../errors.js';
import { endpoints } from '../../contract/endpoints.js';
import { explainValidation } from '../validationMessage.js';

export function memoryCareRoutes(app: FastifyInstance, viewer: Viewer): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get('/api/memory/health', { schema: endpoints.memoryHealth }, async () => viewer.care.health());

  typed.post('/api/memory/fix', { schema: endpoints.memoryFix, errorHandler: explainValidation }, async (request, reply) =>
    answer(reply, await viewer.care.fix(request.body)));

  typed.post('/api/memory/fix-all', { schema: endpoints.memoryFixAll, errorHandler: explainValidation }, async (request, reply) =>
    answer(reply, await viewer.care.fixAll(request.body)));

  typed.post('/api/memory/undo', { schema: endpoints.memoryUndo, errorHandler: explainValidation }, async (request, reply) =>
    answer(reply, await viewer.care.undoFix(request.body.undoId)));

  typed.get('/api/memory/fixes', { schema: endpoints.memoryFixes }, async (request) => viewer.care.recentFixes(request.query.project));

  typed.get('/api/memory/trash', { schema: endpoints.memoryTrash }, () => viewer.care.trash());
}

function answer<T>(reply: FastifyReply, outcome: Outcome<T>): T | FastifyReply {
  return 'ok' in outcome ? outcome.ok : sendText(reply, outcome.status, outcome.message);
}
