// The only way the UI talks to the service: the public HTTP API of the interface spec.
import type {
  Content, MemoryFixRequest, MemoryFixResult, MemoryHealth, MemoryListing, MemorySearch, MemoryTrash, MemoryUndoResult, OpenRequest,
  OpenResult, PlanList, PlanSearch, RefreshResult,
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
    res = await fetch(path, { ...init, credentials: 'same-origin', cache: 'no-store' });
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

async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await request(path, signal ? { signal } : {});
  return (await res.json()) as T;
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
  plans: (signal?: AbortSignal) => getJson<PlanList>('/api/plans', signal).then((r) => r.plans),
  planContent: (filename: string, signal?: AbortSignal) =>
    getJson<Content>(`/api/plans/${encodeURIComponent(filename)}/content`, signal).then((r) => r.content),
  searchPlans: (q: string, signal?: AbortSignal) =>
    getJson<PlanSearch>(`/api/search?q=${encodeURIComponent(q)}`, signal).then((r) => r.filenames),
  memory: (signal?: AbortSignal) => getJson<MemoryListing>('/api/memory', signal),
  memoryContent: (id: string, signal?: AbortSignal) =>
    getJson<Content>(`/api/memory/content?id=${encodeURIComponent(id)}`, signal).then((r) => r.content),
  searchMemory: (q: string, signal?: AbortSignal) =>
    getJson<MemorySearch>(`/api/memory/search?q=${encodeURIComponent(q)}`, signal).then((r) => r.ids),
  refresh: () => postJson<RefreshResult>('/api/refresh'),
  open: (filepath: string) => postJson<OpenResult>('/api/open', { filepath } satisfies OpenRequest),
  memoryHealth: (signal?: AbortSignal) => getJson<MemoryHealth>('/api/memory/health', signal),
  memoryTrash: (signal?: AbortSignal) => getJson<MemoryTrash>('/api/memory/trash', signal),
  memoryFix: (request: MemoryFixRequest) => postJson<MemoryFixResult>('/api/memory/fix', request),
  memoryUndo: (undoId: string) => postJson<MemoryUndoResult>('/api/memory/undo', { undoId }),
};
