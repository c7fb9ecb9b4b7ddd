// The session view (?view=session&session=<id>&at=<cursor>): one session's conversation as a person
// reads it, from the public transcript API only. `at` opens it at that entry and highlights it. Its Memory
// tab shows what the session saw of memory (SessionMemory.tsx).
import { useEffect, useState } from 'react';
import { useSessionCard } from '../history/useHistory';
import { tabIds, Tabs } from '../history/Tabs';
import { SessionMemory } from './SessionMemory';
import type { UrlState } from '../state/url';
import type { UrlUpdate } from '../state/useUrlState';
import { Thread } from './Thread';
import { GonePrompts } from './GonePrompts';
import './session.css';

type SessionTab = 'conversation' | 'memory';
const SESSION_TABS: { key: SessionTab; label: string; title?: string }[] = [
  { key: 'conversation', label: 'Conversation' },
  { key: 'memory', label: 'Memory', title: 'What the session loaded of memory at its start, was handed, and wrote' },
];

interface Props {
  url: UrlState;
  setUrl(update: UrlUpdate, mode?: 'push' | 'replace'): void;
  onOpenPlan(filename: string): void;
}

export function SessionView({ url, setUrl, onOpenPlan }: Props) {
  const sessionId = url.session;
  const { card } = useSessionCard(sessionId);
  const [tab, setTab] = useState<{ id: string | null; tab: SessionTab }>({ id: sessionId, tab: 'conversation' });
  const shownTab: SessionTab = tab.id === sessionId ? tab.tab : 'conversation';
  // Where the shown pages start: the linked entry when the view opens; a link to an entry already
  // on screen only highlights it.
  const [start, setStart] = useState<{ id: string | null; at: number }>({ id: sessionId, at: url.at ?? 0 });
  useEffect(() => {
    setStart((s) => {
      if (s.id !== sessionId) return { id: sessionId, at: url.at ?? 0 };
      if (url.at !== null && url.at < s.at) return { id: sessionId, at: url.at };
      if (url.at !== null && !document.getElementById(`entry-${url.at}`) && url.at > s.at) return { id: sessionId, at: url.at };
      return s;
    });
  }, [sessionId, url.at]);

  if (!sessionId) {
    return (
      <main id="main" className="session-view state-panel empty">
        <h1>No session chosen</h1>
        <p>Open a session from a plan's session cards or from the palette (Ctrl+K).</p>
      </main>
    );
  }
  const from = start.id === sessionId ? start.at : url.at ?? 0;
  // Its transcript is gone (Claude Code's cleanup): what history.jsonl kept of it, no tabs.
  if (card?.source === 'prompt-history') {
    return (
      <main id="main" className="session-view" aria-label="Session">
        <header className="session-header">
          <h1 className="session-view-title">{shortTitle(card.firstPrompt)}</h1>
          <p className="session-meta">
            <code>{sessionId}</code>
            {card.cwd && <> in <code>{card.cwd}</code></>}
          </p>
        </header>
        <div className="session-panel">
          <GonePrompts sessionId={sessionId} />
        </div>
      </main>
    );
  }
  return (
    <main id="main" className="session-view" aria-label="Session">
      <header className="session-header">
        <h1 className="session-view-title">{card?.title ?? 'Session'}</h1>
        <p className="session-meta">
          <code>{sessionId}</code>
          {card?.cwd && (
            <>
              {' '}in <code>{card.cwd}</code>
            </>
          )}
        </p>
        {card?.kept && (
          <p className="chip kept-badge" role="note" data-testid="kept-note">
            Transcript deleted by Claude Code; kept by the viewer (a copy under its cache dir)
          </p>
        )}
        {card && card.plans.length > 0 && (
          <p className="session-plans">
            Plans:{' '}
            {card.plans.map((p) => (
              <button key={p} type="button" className="link-button" onClick={() => onOpenPlan(p)}>
                {p}
              </button>
            ))}
          </p>
        )}
        {from > 0 && (
          <p className="session-from">
            Opened at a linked entry.{' '}
            <button type="button" className="link-button" onClick={() => { setStart({ id: sessionId, at: 0 }); setUrl({ at: null }, 'push'); }}>
              Start from the beginning
            </button>
          </p>
        )}
        <Tabs tabs={SESSION_TABS} selected={shownTab} label="Session views" idBase="session" onSelect={(key) => setTab({ id: sessionId, tab: key })} className="session-tabs" />
      </header>
      <div role="tabpanel" id={tabIds('session', shownTab).panel} aria-labelledby={tabIds('session', shownTab).tab} className="session-panel">
        {shownTab === 'memory' ? (
          <SessionMemory sessionId={sessionId} />
        ) : (
          <Thread
            key={`${sessionId}:${from}`}
            sessionId={sessionId}
            agent=""
            start={from}
            highlight={url.at}
            card={card}
            onLink={(cursor) => setUrl({ at: cursor }, 'push')}
          />
        )}
      </div>
    </main>
  );
}

/** A gone session's heading: its first prompt's first line, short. */
function shortTitle(prompt: string | null): string {
  const line = prompt?.split('\n', 1)[0]?.trim() ?? '';
  if (line === '') return 'Session';
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
