// GET /api/memory/health, fetched again whenever the memory listing changes (live updates, fixes).
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { api } from '../api/client';
import type { MemoryHealth, MemoryHealthSource } from '../api/types';
import { useRemote, type Remote } from '../state/useRemote';

export interface HealthModel {
  remote: Remote<MemoryHealth>;
  bySource: Map<string, MemoryHealthSource>;
  /** The service said it writes nothing (--read-only, an unwritable cache folder). */
  readOnly: boolean;
  /**
   * The service said it accepts writes: until its answer comes, nothing that writes (Undo, restoring from the
   * trash) is offered, since the lists that offer them are fetched on their own and may come first.
   */
  writable: boolean;
  /** Why fixes cannot be applied (--read-only, a cache folder that cannot be written), or null. */
  readOnlyReason: string | null;
  reload(): void;
}

export function useMemoryHealth(listingVersion: number): HealthModel {
  const [remote, reload] = useRemote(useCallback((signal: AbortSignal) => api.memoryHealth(signal), []));
  const seen = useRef(listingVersion);
  useEffect(() => {
    // The first listing is fetched alongside; every later one means files changed.
    if (listingVersion !== seen.current) {
      seen.current = listingVersion;
      reload();
    }
  }, [listingVersion, reload]);
  const bySource = useMemo(() => new Map((remote.data?.sources ?? []).map((s) => [s.sourceId, s])), [remote.data]);
  return {
    remote, bySource, readOnly: remote.data?.readOnly ?? false, writable: remote.data !== null && !remote.data.readOnly,
    readOnlyReason: remote.data?.readOnlyReason ?? null, reload,
  };
}
