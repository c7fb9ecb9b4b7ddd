// Brand, view tabs with counts (and the Costs view), the one search box, live status, refresh, theme and help.
import type { RefObject } from 'react';
import type { LiveStatus } from '../api/events';
import type { View } from '../state/url';
import { useStatus } from '../api/status';
import { formatCount } from './format';
import type { ThemeMode } from './theme';

interface Props {
  view: View;
  planCount: number | null;
  memoryCount: number | null;
  query: string;
  searchRef: RefObject<HTMLInputElement | null>;
  live: LiveStatus;
  themeMode: ThemeMode;
  dark: boolean;
  onView(view: View): void;
  onQuery(q: string): void;
  onSearchEnter(): void;
  onRefresh(): void;
  onTheme(): void;
  onHelp(): void;
}

const LIVE_TEXT: Record<LiveStatus, string> = {
  live: 'Live',
  connecting: 'Reconnecting…',
  offline: 'Live updates off',
};

export function TopBar(p: Props) {
  const placeholder =
    p.view === 'plans' || p.view === 'session' || p.view === 'costs' ? 'Search plans: title, file, project, text'
    : p.view === 'archive' ? 'Search archived plans: title, file, project'
    : 'Search memory: name, file, description, text';
  return (
    <header className="topbar">
      <a className="skip-link" href="#main">Skip to content</a>
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">◆</span> <span className="brand-name">Plans &amp; Memory</span>
        <HomeLabel />
      </div>
      <nav className="view-tabs" role="tablist" aria-label="Views">
        <button type="button" role="tab" aria-selected={p.view === 'plans'} onClick={() => p.onView('plans')} title="Plans (1)">
          Plans {p.planCount !== null && <span className="count">{formatCount(p.planCount)}</span>}
        </button>
        <button type="button" role="tab" aria-selected={p.view === 'memory'} onClick={() => p.onView('memory')} title="Memory (2)">
          Memory {p.memoryCount !== null && <span className="count">{formatCount(p.memoryCount)}</span>}
        </button>
        <button type="button" role="tab" aria-selected={p.view === 'archive'} onClick={() => p.onView('archive')} title="Plans no longer on disk (3)">
          Archive
        </button>
        <button type="button" role="tab" aria-selected={p.view === 'costs'} onClick={() => p.onView('costs')} title="Cost and active time per day, project and plan">
          Costs
        </button>
      </nav>
      <div className="search">
        <input
          ref={p.searchRef}
          type="search"
          value={p.query}
          placeholder={placeholder}
          aria-label={placeholder}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => p.onQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === 'ArrowDown') {
              e.preventDefault();
              p.onSearchEnter();
            }
          }}
        />
        <kbd className="search-hint" aria-hidden="true">/</kbd>
      </div>
      <div className="topbar-actions">
        <span className={`live live-${p.live}`} role="status" title="Plans and memory update by themselves while this is live">
          <span className="live-dot" aria-hidden="true" /> <span className="live-text">{LIVE_TEXT[p.live]}</span>
        </span>
        <button type="button" className="icon-button" onClick={p.onRefresh} aria-label="Reload from disk" title="Reload from disk">
          ⟳
        </button>
        <button
          type="button"
          className="icon-button"
          onClick={p.onTheme}
          aria-label={`Theme: ${p.themeMode === 'system' ? `system (${p.dark ? 'dark' : 'light'})` : p.themeMode}. Switch theme`}
          title={`Theme: ${p.themeMode}`}
          data-theme-mode={p.themeMode}
        >
          {p.themeMode === 'system' ? '◐' : p.dark ? '☾' : '☀'}
        </button>
        <button type="button" className="icon-button" onClick={p.onHelp} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
          ?
        </button>
      </div>
    </header>
  );
}

/** Which Claude Code home is shown (the full path on hover), and that it is the demo when it is. */
function HomeLabel() {
  const status = useStatus();
  if (status === null) return null;
  return (
    <span className="brand-home" title={`Showing ${status.home}${status.readOnly ? ' (read-only)' : ''}`} data-testid="home-label">
      {status.demo ? 'demo home' : status.homeLabel}
      {status.readOnly && ' · read-only'}
    </span>
  );
}
