// GET /api/memory/history, /api/memory/versions/{versionId}, /api/memory/blame and /api/memory/archive: the
// memory-history extensions (src/contract/memoryHistory.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { memoryHistoryEndpoints as endpoints } from '../../contract/memoryHistory.js';
import { sendText } from '../errors.js';

export function memoryHistoryRoutes(app: FastifyInstance, viewer: Viewer): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const histories = viewer.memoryHistory;
  // Built on the transcripts' facts: none before they are all at hand (viewer.ts).
  const ready = (): Promise<void> => viewer.transcriptsReady;

  typed.get('/api/memory/history', { schema: endpoints.history }, async (request, reply) => {
    await ready();
    const history = await histories.history(request.query.id);
    if (history === null) return sendText(reply, 404, 'Memory not found');
    const { id, filepath, onDisk, versions } = history;
    return { id, filepath, onDisk, versions, loadedBy: histories.loadedBy(filepath) };
  });

  typed.get('/api/memory/versions/:versionId', { schema: endpoints.version }, async (request, reply) => {
    await ready();
    const content = await histories.version(request.query.id, request.params.versionId);
    if (content === null) return sendText(reply, 404, 'Version not found');
    return { content };
  });

  typed.get('/api/memory/blame', { schema: endpoints.blame }, async (request, reply) => {
    await ready();
    const blame = await histories.blame(request.query.id);
    if (blame === null) return sendText(reply, 404, 'Memory not found');
    return blame;
  });

  typed.get('/api/memory/archive', { schema: endpoints.archive }, async () => {
    await ready();
    return { files: await histories.archive() };
  });
}
