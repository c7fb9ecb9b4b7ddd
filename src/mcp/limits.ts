// What one MCP request may ask for, over stdio and POST /mcp alike (docs/security.md, rule 21): a batch
// of calls is bounded, and a tool answers a window of a content, never a whole 200 MB plan. Free of the
// SDK, so that the HTTP route can check a batch before the MCP bundle is loaded.

/** Most JSON-RPC messages in one batch over POST /mcp (the SDK itself takes 100). */
export const MCP_BATCH_LIMIT = 20;

/** Bytes of content a get_* tool answers when not asked for fewer or more. */
export const DEFAULT_WINDOW_BYTES = 256 * 1024;
/** Most bytes of content one get_* call may ask for. */
export const MAX_WINDOW_BYTES = 1024 * 1024;
/** Fewest bytes one call may ask for: enough for any character and a few lines around it. */
export const MIN_WINDOW_BYTES = 1024;

/** The JSON-RPC error that refuses a batch over MCP_BATCH_LIMIT, or null when `body` is no such batch. */
export function oversizedBatch(body: unknown): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } | null {
  if (!Array.isArray(body) || body.length <= MCP_BATCH_LIMIT) return null;
  return {
    jsonrpc: '2.0',
    // -32600: Invalid Request, what the SDK answers for a batch over its own limit.
    error: { code: -32600, message: `Invalid Request: a batch holds at most ${MCP_BATCH_LIMIT} messages, this one ${body.length}; send the rest in further requests` },
    id: null,
  };
}
