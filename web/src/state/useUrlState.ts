// React binding of the URL state: reads location.search, writes with pushState (navigation) or
// replaceState (typing, filters), and follows the back/forward buttons.
import { useCallback, useEffect, useRef, useState } from 'react';
import { parseUrlState, serializeUrlState, type UrlState } from './url';

export type UrlUpdate = Partial<UrlState> | ((state: UrlState) => Partial<UrlState>);

export function useUrlState(): [UrlState, (update: UrlUpdate, mode?: 'push' | 'replace') => void] {
  const [state, setState] = useState<UrlState>(() => parseUrlState(window.location.search));
  const current = useRef(state);
  current.current = state;

  useEffect(() => {
    const onPop = () => setState(parseUrlState(window.location.search));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const update = useCallback((change: UrlUpdate, mode: 'push' | 'replace' = 'replace') => {
    const prev = current.current;
    const patch = typeof change === 'function' ? change(prev) : change;
    const next = { ...prev, ...patch };
    const query = serializeUrlState(next);
    if (query !== window.location.search) {
      const url = `${window.location.pathname}${query}`;
      if (mode === 'push') window.history.pushState(null, '', url);
      else window.history.replaceState(null, '', url);
    }
    current.current = next;
    setState(next);
  }, []);

  return [state, update];
}
