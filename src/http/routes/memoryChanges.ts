// GET /api/memory/changes and POST /api/memory/changes/{id}/restore (extensions, src/contract/memoryChanges.ts):
// the bulk memory changes the viewer saw outside any session, and putting one back through memory care
// (previewed, applied with the preview's hash, undone with POST /api/memory/undo). The POST is under the
// same-origin rule and JSON-only parsing of every state-changing request (security rules 3 and 4).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { changesEndpoints as endpoints } from '../../contract/memoryChanges.js';
import { sendText } from '../errors.js';
import { explainValidation } from '../validationMessage.js';

export function memoryChangesRoutes(app: FastifyInstance, viewer: Viewer): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  // Whether a session explains a change is read from the transcripts' facts: none before they are all at hand.
  const ready = (): Promise<void> => viewer.transcriptsReady;

  typed.get('/api/memory/changes', { schema: endpoints.memoryChanges }, async (request) => {
    await ready();
    return { changes: await viewer.memoryHistory.bulkChanges(request.query.project) };
  });

  typed.post('/api/memory/changes/:id/restore', { schema: endpoints.memoryChangeRestore, errorHandler: explainValidation }, async (request, reply) => {
    await ready();
    const found = await viewer.memoryHistory.bulkRestore(request.params.id);
    if (found === null) return sendText(reply, 404, 'Not found: no such bulk change');
    const outcome = await viewer.care.restoreBulk({ ...found, changeId: request.params.id, hash: request.body.hash, apply: request.body.apply });
    return 'ok' in outcome ? outcome.ok : sendText(reply, outcome.status, outcome.message);
  });
}
