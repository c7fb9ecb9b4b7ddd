// Opening a plan or a memory entry at a line (a snippet's, from the search boxes or the palette): which
// document and line, kept only while that document stays open, for its reader to start at the match there.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { MemoryEntry } from '../api/types';
import type { Landing } from '../reader/landing';
import type { UrlState } from '../state/url';
import type { UrlUpdate } from '../state/useUrlState';
import type { FindSnippetView } from './found';
import type { LandAt } from './openFound';

interface Target {
  view: 'plans' | 'memory';
  id: string;
  line: number;
  /** New for every landing: the same line can be landed on again. */
  seq: number;
}

export function useLanding(url: UrlState, shownEntryId: string | null, setUrl: (update: UrlUpdate, mode?: 'push' | 'replace') => void) {
  const [target, setTarget] = useState<Target | null>(null);
  const landAt = useCallback<LandAt>((view, id, line) => setTarget((t) => ({ view, id, line, seq: (t?.seq ?? 0) + 1 })), []);
  useEffect(() => {
    setTarget((t) => (t && (t.view !== url.view || t.id !== (t.view === 'plans' ? url.plan : url.entry)) ? null : t));
  }, [url.view, url.plan, url.entry]);

  const planLanding = useMemo<Landing | null>(
    () => (target?.view === 'plans' && target.id === url.plan ? { key: String(target.seq), line: target.line } : null),
    [target, url.plan],
  );
  const entryLanding = useMemo<Landing | null>(
    () => (target?.view === 'memory' && target.id === shownEntryId ? { key: String(target.seq), line: target.line } : null),
    [target, shownEntryId],
  );
  const openPlanSnippet = useCallback((filename: string, snippet: FindSnippetView) => {
    setUrl({ plan: filename, planTab: null, from: null, to: null }, 'push');
    landAt('plans', filename, snippet.line);
  }, [setUrl, landAt]);
  const openEntrySnippet = useCallback((entry: MemoryEntry, snippet: FindSnippetView) => {
    setUrl({ view: 'memory', source: entry.sourceId, entry: entry.id, tab: 'entry' }, 'push');
    landAt('memory', entry.id, snippet.line);
  }, [setUrl, landAt]);

  return { landAt, planLanding, entryLanding, openPlanSnippet, openEntrySnippet };
}
