// The OpenAPI 3.0.3 document: @fastify/swagger builds it from the route schemas; this file adds what the
// schemas cannot say (the choices made where the interface spec says "not shown").
import type { SwaggerOptions } from '@fastify/swagger';

const DESCRIPTION = `Local HTTP/JSON service for browsing and searching the plan files and auto-memory files Claude Code writes.
All responses are JSON except errors, which are plain text.

Behaviour where the interface leaves it open:
- **Plan order**: newest \`modified\` first, ties by file name.
- **Plan title** without a heading: the file name without \`.md\`. Headings inside fenced code do not count; a leading BOM
  is ignored and a leading "Plan:" is removed.
- **project / sessionId**: from the session logs (\`<claude>/projects/*/*.jsonl\` and subagent logs): the last line
  carrying \`"slug":"<plan file stem>"\` gives the sessionId; the \`cwd\` that session started in (the one its project
  folder is named after) gives the project: its last path segment, or the repository's for a worktree
  (\`<repo>/.claude/worktrees/<name>\`). \`<slug>-agent-<id>.md\` belongs to \`<slug>\`'s session. No such line: both null.
- **Plan sources**: \`<claude>/plans/*.md\` plus the \`plansDirectory\` of every project known from the logs. When two
  folders hold the same file name, the most recently modified file is listed.
- **Absent q** on the search endpoints behaves as an empty q: no matches (200).
- **Absent id** on GET /api/memory/content is an unknown id: 404 \`Memory not found\`.
- **Errors** beyond the spec's table, all plain text: 403 for a Host that is not a loopback name (or one allowed with
  \`--allow-host\`), for cross-origin state-changing requests, and for any request a browser marks as sent by another
  site (\`Sec-Fetch-Site: cross-site\` or \`same-site\`) except a top-level navigation to the UI page \`/\`; 404 for
  unknown paths; 405 for a wrong method (with an \`Allow\` header); 413 for POST bodies over 16 KiB; 400 for malformed
  URLs and for a malformed percent-escape (or escapes that are not UTF-8) in any query string.
- **POST /api/open** accepts only \`Content-Type: application/json\`; anything else is a malformed body (400 \`Invalid path\`).
- **At start**: the service accepts connections while its first scan of the logs runs; a request that comes meanwhile
  is answered once the scan is done, so no answer ever holds a partial list.
- **Events**: \`GET /api/events\` (Server-Sent Events) is an extension used by the web UI, outside interface 1.4.0.
- **Authentication**: none on loopback. When started on a non-loopback address, every request needs the per-launch
  token (header \`X-Viewer-Token\`, or the \`pmv_token\` cookie set by opening the printed URL).`;

export function openapiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Plan and Memory Viewer', version: '1.4.0', description: DESCRIPTION },
      servers: [{ url: '/', description: 'This server' }],
    },
    refResolver: {
      // Component names are the schemas' $id (PlanMetadata, MemoryEntry ...) instead of def-0, def-1.
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}
