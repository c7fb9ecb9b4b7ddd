// Every error leaves the service as plain text with a fixed, short message: never JSON, never a stack.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteTable } from './routeTable.js';

export function sendText(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(message);
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
};

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status >= 500 ? 'Internal Server Error' : 'Bad request');
}

/** The plain-text answer of an error a route raised (or fastify raised for it). */
export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  // POST /api/open promises exactly one client error text for every malformed request (spec).
  if (request.routeOptions.url === '/api/open' && status >= 400 && status < 500 && status !== 413 && status !== 403) {
    return sendText(reply, 400, 'Invalid path');
  }
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  return sendText(reply, status, statusText(status));
}

/** Plain-text errors, and 405 (with `Allow`) for a known path asked with a method it does not answer. */
export function installErrorHandling(app: FastifyInstance, routes: RouteTable): void {
  app.setErrorHandler(answerError);

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const allowed = routes.methodsFor(pathname);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      void reply.header('allow', allowed.join(', '));
      return sendText(reply, 405, statusText(405));
    }
    return sendText(reply, 404, statusText(404));
  });
}
