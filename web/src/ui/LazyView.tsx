// Views fetched on demand (the plan reader, the memory view): what shows while one loads, and what
// shows if its file cannot be fetched (the service stopped, say) instead of a blank page. Once the
// first screen is up they are fetched in the background (prefetchViews), so opening one rarely waits.
import { Component, Suspense, type ReactNode } from 'react';

interface BoundaryState {
  error: unknown;
}

class ViewBoundary extends Component<{ children: ReactNode; what: string }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="state-panel error">
        <h2>Could not load the {this.props.what}</h2>
        <p>Part of the viewer could not be fetched from the service. Is it still running? Start it again, then reload.</p>
        {/* A failed dynamic import stays failed in this page: only a reload fetches it again. */}
        <button type="button" onClick={() => window.location.reload()}>Reload</button>
      </div>
    );
  }
}

export function LazyView({ what, children }: { what: string; children: ReactNode }) {
  return (
    <ViewBoundary what={what}>
      <Suspense fallback={<div className="state-panel loading" aria-busy="true">Loading the {what}…</div>}>{children}</Suspense>
    </ViewBoundary>
  );
}

/** Fetches the views' code when the browser is idle (after the first screen), so it is there when needed. */
export function prefetchViews(loads: (() => Promise<unknown>)[]): () => void {
  const run = () => {
    for (const load of loads) load().catch(() => undefined);
  };
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 200);
  return () => window.clearTimeout(id);
}
