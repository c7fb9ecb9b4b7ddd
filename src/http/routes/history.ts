// GET /api/plans/{filename}/history, /api/plans/{filename}/versions/{id}, /api/archive, /api/retention and
// /api/sessions/{id} (its card, from history.jsonl when its transcript is gone), /api/sessions/gone and
// /api/sessions/{id}/prompts; POST /api/archive/{filename}/restore: the plan-history extensions (src/contract/history.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { historyEndpoints } from '../../contract/history.js';
import { promptHistoryEndpoints } from '../../contract/promptHistory.js';
import { sendContent } from '../contentAnswer.js';
import { sendText } from '../errors.js';
import { explainValidation } from '../validationMessage.js';

export function historyRoutes(app: FastifyInstance, viewer: Viewer): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const stories = viewer.history.stories;

  // Every answer here is built on the transcripts' facts: none before they are all at hand (viewer.ts).
  const ready = (): Promise<void> => viewer.transcriptsReady;

  typed.get('/api/plans/:filename/history', { schema: historyEndpoints.history }, async (request, reply) => {
    await ready();
    const { filename } = request.params;
    const story = await stories.story(filename);
    if (story === null) return sendText(reply, 404, 'Plan not found');
    return {
      filename, versions: story.versions, events: story.events, sessions: story.sessions, unreadLines: viewer.history.index.unreadLines(story.sessions),
      retention: stories.retention(filename),
    };
  });

  typed.get('/api/plans/:filename/versions/:id', { schema: historyEndpoints.version }, async (request, reply) => {
    await ready();
    const version = await stories.version(request.params.filename, request.params.id);
    if (version === null) return sendText(reply, 404, 'Version not found');
    // A large file on disk is streamed, as its /content is.
    return 'text' in version ? { content: version.text } : sendContent(reply, version.file);
  });

  typed.get('/api/archive', { schema: historyEndpoints.archive }, async () => {
    await ready();
    return { plans: stories.archive() };
  });

  typed.post('/api/archive/:filename/restore', { schema: historyEndpoints.restore, errorHandler: explainValidation }, async (request, reply) => {
    await ready();
    const outcome = await viewer.restoreArchived(request.params.filename, request.body.versionId);
    if (outcome.kind === 'not-found') return sendText(reply, 404, 'Plan not found in the archive');
    if (outcome.kind === 'refused') return sendText(reply, 409, outcome.message);
    return { filename: outcome.filename, filepath: outcome.filepath };
  });

  typed.get('/api/retention', { schema: historyEndpoints.retention }, () => viewer.answers.retention());

  // Static routes go before the parametric one in Fastify's router: "gone" is never taken for an id.
  typed.get('/api/sessions/gone', { schema: promptHistoryEndpoints.gone }, (request) =>
    viewer.answers.goneSessions(Number(request.query.limit), Number(request.query.cursor)));

  typed.get('/api/sessions/:sessionId/prompts', { schema: promptHistoryEndpoints.prompts }, async (request, reply) => {
    const prompts = await viewer.answers.sessionPrompts(request.params.sessionId);
    if (prompts === null) return sendText(reply, 404, 'Session not found');
    return { sessionId: request.params.sessionId, prompts };
  });

  typed.get('/api/sessions/:sessionId', { schema: historyEndpoints.session }, async (request, reply) => {
    await ready();
    const card = await viewer.answers.sessionCard(request.params.sessionId);
    if (card === null) return sendText(reply, 404, 'Session not found');
    return card;
  });
}
