// GET /api/status: the home shown and the first scan's progress (src/contract/status.ts).
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Viewer } from '../../viewer.js';
import { statusEndpoints, type StatusBody } from '../../contract/status.js';

/** `dir` with the user's home folder written as ~ (as a person types it). */
export function homeLabel(dir: string, userHome = os.homedir()): string {
  const relative = path.relative(userHome, dir);
  if (userHome === '' || relative.startsWith('..') || path.isAbsolute(relative)) return dir;
  return relative === '' ? '~' : `~${path.sep}${relative}`;
}

export function statusRoutes(app: FastifyInstance, viewer: Viewer, demo: boolean): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/api/status', { schema: statusEndpoints.status }, (): StatusBody => {
    const home = viewer.options.claudeDir;
    const stats = viewer.sessions.scanStats();
    return {
      home,
      homeLabel: homeLabel(home),
      plansDir: path.join(home, 'plans'),
      demo,
      readOnly: viewer.options.readOnly ?? false,
      loaded: viewer.isLoaded,
      progress: { sessionLogs: stats.trackedFiles, bytesRead: stats.bytesRead, plans: viewer.plans.count },
    };
  });
}
