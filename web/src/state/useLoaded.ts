// One answer loaded for a view, fetched again when `deps` change (the previous fetch aborted): loading,
// error or the value. For answers a view shows as they are, with no refresh kept on screen (see useRemote).
import { useEffect, useState } from 'react';
import { isAbort } from '../api/client';

export type Loaded<T> = { status: 'loading' } | { status: 'error'; error: unknown } | { status: 'ready'; value: T };

export function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    load(controller.signal).then(
      (value) => setState({ status: 'ready', value }),
      (error: unknown) => !isAbort(error) && setState({ status: 'error', error }),
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `deps` names what `load` reads
  }, deps);
  return state;
}
