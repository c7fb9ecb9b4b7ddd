// POST /api/refresh and POST /api/open: the two state-changing routes (guarded by the same-origin check).
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { sendText } from '../errors.js';
import { endpoints } from '../../contract/endpoints.js';

export type Opener = (filepath: string) => Promise<boolean>;

export function actionRoutes(app: FastifyInstance, viewer: Viewer, opener: Opener): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.post('/api/refresh', { schema: endpoints.refresh }, async () => {
    const { before, after } = await viewer.refresh();
    return { success: true, before, after };
  });

  typed.post('/api/open', { schema: endpoints.open, attachValidation: true }, async (request, reply) => {
    if (request.validationError || !isJson(request.headers['content-type'])) return sendText(reply, 400, 'Invalid path');
    const { filepath } = request.body;
    if (!(await isKnownFile(viewer, filepath))) return sendText(reply, 400, 'Invalid path');
    // Listed a moment ago is not enough: it must still be a regular .md file when the opener runs.
    const stats = await stat(filepath).catch(() => null);
    if (!stats?.isFile() || !filepath.endsWith('.md')) return sendText(reply, 400, 'Invalid path');
    if (!(await opener(filepath))) return sendText(reply, 500, 'Failed to open file');
    return { success: true };
  });
}

/** Exact string equality with a listed filepath: no normalisation, so no path trick can match. */
async function isKnownFile(viewer: Viewer, filepath: string): Promise<boolean> {
  if (viewer.plans.list().some((p) => p.filepath === filepath)) return true;
  const memory = await viewer.memory.list();
  return memory.entries.some((e) => e.filepath === filepath);
}

/** A text/plain POST needs no CORS preflight, so only JSON is accepted (security rule 4). */
function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}
