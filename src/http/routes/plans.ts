// GET /api/plans, /api/plans/{filename}/content, /api/search, /api/projects.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { sendText } from '../errors.js';
import { endpoints } from '../../contract/endpoints.js';
import { CachedJson } from '../cachedJson.js';
import { sendContent } from '../contentAnswer.js';

// The list's own JSON (see PlanStore.listJson()) inside the answer's object.
const PLANS_OPEN = Buffer.from('{"plans":');
const PLANS_CLOSE = Buffer.from('}');

export function planRoutes(app: FastifyInstance, viewer: Viewer): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  // The list is serialized once per change and served as bytes: it is the hottest and largest answer.
  const planList = new CachedJson(() => viewer.plans.version,
    () => Buffer.concat([PLANS_OPEN, viewer.plans.listJson(), PLANS_CLOSE]));

  typed.get('/api/plans', { schema: endpoints.plans }, (request, reply) => planList.send(request, reply));
  // Built as soon as the first scan is done, before the requests held for it are let through and before
  // background work starts: the first request would otherwise share the event loop with the watchers' crawl.
  void viewer.loaded.then(() => planList.current());

  typed.get('/api/plans/:filename/content', { schema: endpoints.planContent }, async (request, reply) => {
    const opened = await viewer.openPlan(request.params.filename);
    if (opened === null) return sendText(reply, 404, 'Plan not found');
    return sendContent(reply, opened);
  });

  typed.get('/api/search', { schema: endpoints.search }, async (request) => ({ filenames: await viewer.plans.search(request.query.q) }));

  typed.get('/api/projects', { schema: endpoints.projects }, () => ({ projects: viewer.plans.projects() }));
}
