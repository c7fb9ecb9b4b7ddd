// How JSON leaves the service. A handler returns its data and fastify sends any object as
// `application/json; charset=utf-8` through the one serializer below; a body already serialized (the
// cached plan list, a streamed file content) is handed over as `SerializedJson` and goes out as it is,
// typed the same way. No route sets a JSON content type itself.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** JSON bytes built ahead of the request (or a stream producing them). */
export class SerializedJson {
  constructor(readonly body: string | Buffer | Readable) {}
}

/**
 * The app's reply serializer (`setReplySerializer`). fastify hands it every object payload after setting
 * the JSON content type; what it returns is sent as is (strings, buffers and streams alike).
 */
export function serializeReply(payload: unknown): string {
  // fastify's type says string; it sends a Buffer or a stream returned here just the same.
  if (payload instanceof SerializedJson) return payload.body as string;
  return JSON.stringify(payload);
}

/** Sends pre-serialized JSON; for handlers that also set headers (ETag) or may answer otherwise. */
export function sendSerialized(reply: FastifyReply, body: string | Buffer | Readable): FastifyReply {
  return reply.send(new SerializedJson(body));
}
