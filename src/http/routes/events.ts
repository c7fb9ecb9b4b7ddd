// GET /api/events: Server-Sent Events announcing plan and memory changes to the web UI.
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Viewer, ViewerEvent } from '../../viewer.js';
import { SECURITY_HEADERS } from '../guards.js';
import { endpoints } from '../../contract/endpoints.js';

const KEEPALIVE_MS = 20_000;

export function eventRoutes(app: FastifyInstance, viewer: Viewer, demo: boolean): void {
  const streams = new Set<ServerResponse>();

  const broadcast = (event: ViewerEvent): void => {
    const { type, ...data } = event;
    const frame = `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const stream of streams) stream.write(frame);
  };
  const unsubscribe = viewer.onEvent(broadcast);
  const keepalive = setInterval(() => {
    for (const stream of streams) stream.write(': keep-alive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();

  app.get('/api/events', { schema: endpoints.events }, (request, reply) => {
    // The stream outlives the handler, so fastify's reply (and its onSend hooks) is bypassed: the
    // security headers are written here by hand.
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 1000\nevent: ready\ndata: ${JSON.stringify({ demo })}\n\n`);
    streams.add(res);
    request.raw.socket.setTimeout(0);
    const drop = (): void => void streams.delete(res);
    request.raw.on('close', drop);
    res.on('error', drop);
  });

  // Open streams would keep server.close() waiting forever.
  app.addHook('preClose', (done) => {
    clearInterval(keepalive);
    unsubscribe();
    for (const stream of streams) stream.end();
    streams.clear();
    done();
  });
}
