// GET /api/find for a search box (see boxFind.ts): debounced like the literal search, paged through in the
// background (one page at a time, so typing never queues a burst), asked again after a live update.
import { useEffect, useState } from 'react';
import { api, ApiError, isAbort } from '../api/client';
import { boxFindQuery, type BoxScope, type Found } from './boxFind';

/** Results per request: the most GET /api/find gives at once. */
const PAGE = 100;
/**
 * Results taken in all. Rows find ranks lower than this have no snippets and come after the ranked ones
 * under "Best match", in the list's usual order: past a thousand rows, rank no longer helps anyone.
 */
export const MAX_FOUND = 1000;
const DELAY_MS = 200;

export interface BoxFind {
  /** By id: rank and snippets; null while no answer for the box's text is known. */
  found: ReadonlyMap<string, Found> | null;
  /** Find did not answer (it is down, or failed): the list shows no snippets, and says so quietly. */
  failed: boolean;
}

interface Answer {
  q: string;
  found: ReadonlyMap<string, Found> | null;
  failed: boolean;
}

const NOTHING: BoxFind = { found: null, failed: false };

export function useBoxFind(text: string, scope: BoxScope, version: number): BoxFind {
  const q = boxFindQuery(text.trim(), scope);
  const [answer, setAnswer] = useState<Answer>({ q: '', found: null, failed: false });

  useEffect(() => {
    if (q === null) return;
    const ctrl = new AbortController();
    const timer = window.setTimeout(() => {
      void (async () => {
        const found = new Map<string, Found>();
        try {
          for (let offset = 0; offset < MAX_FOUND; offset += PAGE) {
            const body = await api.find(q, ctrl.signal, { limit: PAGE, offset });
            for (const hit of body.results) {
              if (!found.has(hit.id)) found.set(hit.id, { rank: found.size, snippets: hit.snippets });
            }
            setAnswer({ q, found: new Map(found), failed: false });
            if (offset + PAGE >= body.total || body.results.length === 0) break;
          }
        } catch (error) {
          if (isAbort(error) || ctrl.signal.aborted) return;
          // A query find refuses (400) has no snippets: nothing failed, there is just nothing to show.
          const refused = error instanceof ApiError && error.status === 400;
          setAnswer({ q, found: refused || found.size > 0 ? found : null, failed: !refused });
        }
      })();
    }, DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      ctrl.abort();
    };
  }, [q, version]);

  if (q === null) return NOTHING;
  // After a live update the answer for the same text stays until the new one arrives.
  return answer.q === q ? { found: answer.found, failed: answer.failed } : NOTHING;
}
