// The only way the UI talks to the service: the public HTTP API of the interface spec.
import type {
  ArchiveBody, Content, CostsBody, FindBody, MemoryBlameBody, MemoryFixAllRequest, MemoryFixAllResult, MemoryFixRequest, MemoryFixResult, MemoryFixes,
  BulkRestoreRequest, BulkRestoreResult, MemoryChangesBody, MemoryHealth, MemoryHistoryBody, MemoryListing, MemorySearch, MemoryTrash, MemoryUndoResult, OpenRequest, OpenResult, PlanHistoryBody, PlanList,
  PlanOutcome, PlanSearch, RefreshResult, RetentionPolicy, SessionCard, SessionMemoryBody, SessionPromptsBody, StatusBody, TranscriptBody,
} from './types';

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** A message for people: what happened and what to do. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return 'Cannot reach the viewer service. Is it still running? Start it again, then retry.';
    return `The service answered ${error.status}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

async function request(path: string, init: RequestInit = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, { cache: 'no-store', ...init, credentials: 'same-origin' });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0, 'network error');
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    throw new ApiError(res.status, text || res.statusText);
  }
  return res;
}

async function getJson<T>(path: string, signal?: AbortSignal, init: RequestInit = {}): Promise<T> {
  const res = await request(path, signal ? { ...init, signal } : init);
  return (await res.json()) as T;
}

/**
 * The first GET /api/plans takes the answer of index.html's `<link rel=preload as=fetch crossorigin>`,
 * which the browser hands over only to a request like it: same URL, mode (cors), credentials
 * (same-origin) and the default cache mode. The answer is `no-cache` with an ETag, so the default mode
 * never serves a stale list; later loads keep `no-store`.
 */
let preloadUnclaimed = true;
function claimPreload(): RequestInit {
  if (!preloadUnclaimed) return {};
  preloadUnclaimed = false;
  return { cache: 'default' };
}

async function postJson<T>(path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method: 'POST' };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await request(path, init);
  return (await res.json()) as T;
}

export const api = {
  plans: (signal?: AbortSignal) => getJson<PlanList>('/api/plans', signal, claimPreload()).then((r) => r.plans),
  planContent: (filename: string, signal?: AbortSignal) =>
    getJson<Content>(`/api/plans/${encodeURIComponent(filename)}/content`, signal).then((r) => r.content),
  searchPlans: (q: string, signal?: AbortSignal) =>
    getJson<PlanSearch>(`/api/search?q=${encodeURIComponent(q)}`, signal).then((r) => r.filenames),
  memory: (signal?: AbortSignal) => getJson<MemoryListing>('/api/memory', signal),
  memoryContent: (id: string, signal?: AbortSignal) =>
    getJson<Content>(`/api/memory/content?id=${encodeURIComponent(id)}`, signal).then((r) => r.content),
  searchMemory: (q: string, signal?: AbortSignal) =>
    getJson<MemorySearch>(`/api/memory/search?q=${encodeURIComponent(q)}`, signal).then((r) => r.ids),
  find: (q: string, signal?: AbortSignal, page: { limit: number; offset: number } = { limit: 30, offset: 0 }) =>
    getJson<FindBody>(`/api/find?q=${encodeURIComponent(q)}&limit=${page.limit}&offset=${page.offset}`, signal),
  refresh: () => postJson<RefreshResult>('/api/refresh'),
  // Plan history (extensions of the interface, src/contract/history.ts).
  history: (filename: string, signal?: AbortSignal) => getJson<PlanHistoryBody>(`/api/plans/${encodeURIComponent(filename)}/history`, signal),
  outcome: (filename: string, signal?: AbortSignal) => getJson<PlanOutcome>(`/api/plans/${encodeURIComponent(filename)}/outcome`, signal),
  version: (filename: string, id: string, signal?: AbortSignal) =>
    getJson<Content>(`/api/plans/${encodeURIComponent(filename)}/versions/${encodeURIComponent(id)}`, signal).then((r) => r.content),
  archive: (signal?: AbortSignal) => getJson<ArchiveBody>('/api/archive', signal).then((r) => r.plans),
  restoreArchived: (filename: string, versionId: string) =>
    postJson<{ filename: string; filepath: string }>(`/api/archive/${encodeURIComponent(filename)}/restore`, { versionId }),
  session: (sessionId: string, signal?: AbortSignal) => getJson<SessionCard>(`/api/sessions/${encodeURIComponent(sessionId)}`, signal),
  sessionPrompts: (sessionId: string, signal?: AbortSignal) => getJson<SessionPromptsBody>(`/api/sessions/${encodeURIComponent(sessionId)}/prompts`, signal),
  transcript: (sessionId: string, page: { cursor: number; agent?: string; limit?: number }, signal?: AbortSignal) =>
    getJson<TranscriptBody>(
      `/api/sessions/${encodeURIComponent(sessionId)}/transcript?cursor=${page.cursor}&limit=${page.limit ?? 200}${page.agent ? `&agent=${encodeURIComponent(page.agent)}` : ''}`,
      signal,
    ),
  sessionMemory: (sessionId: string, signal?: AbortSignal) => getJson<SessionMemoryBody>(`/api/sessions/${encodeURIComponent(sessionId)}/memory`, signal),
  costs: (by: 'day' | 'project' | 'plan', range: { after: string; before: string } = { after: '', before: '' }, signal?: AbortSignal) =>
    getJson<CostsBody>(`/api/costs?by=${by}&after=${encodeURIComponent(range.after)}&before=${encodeURIComponent(range.before)}`, signal),
  retention: (signal?: AbortSignal) => getJson<RetentionPolicy>('/api/retention', signal),
  status: (signal?: AbortSignal) => getJson<StatusBody>('/api/status', signal),
  open: (filepath: string) => postJson<OpenResult>('/api/open', { filepath } satisfies OpenRequest),
  // Memory history (extensions, src/contract/memoryHistory.ts).
  memoryHistory: (id: string, signal?: AbortSignal) => getJson<MemoryHistoryBody>(`/api/memory/history?id=${encodeURIComponent(id)}`, signal),
  memoryVersion: (id: string, versionId: string, signal?: AbortSignal) =>
    getJson<Content>(`/api/memory/versions/${encodeURIComponent(versionId)}?id=${encodeURIComponent(id)}`, signal).then((r) => r.content),
  memoryBlame: (id: string, signal?: AbortSignal) => getJson<MemoryBlameBody>(`/api/memory/blame?id=${encodeURIComponent(id)}`, signal),
  memoryHealth: (signal?: AbortSignal) => getJson<MemoryHealth>('/api/memory/health', signal),
  memoryFixes: (signal?: AbortSignal) => getJson<MemoryFixes>('/api/memory/fixes', signal),
  memoryTrash: (signal?: AbortSignal) => getJson<MemoryTrash>('/api/memory/trash', signal),
  memoryFix: (request: MemoryFixRequest) => postJson<MemoryFixResult>('/api/memory/fix', request),
  memoryFixAll: (request: MemoryFixAllRequest) => postJson<MemoryFixAllResult>('/api/memory/fix-all', request),
  memoryChanges: (project: string, signal?: AbortSignal) => getJson<MemoryChangesBody>(`/api/memory/changes?project=${encodeURIComponent(project)}`, signal),
  memoryChangeRestore: (changeId: string, body: BulkRestoreRequest) =>
    postJson<BulkRestoreResult>(`/api/memory/changes/${encodeURIComponent(changeId)}/restore`, body),
  memoryUndo: (undoId: string) => postJson<MemoryUndoResult>('/api/memory/undo', { undoId }),
};
