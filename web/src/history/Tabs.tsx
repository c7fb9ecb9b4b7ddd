// A row of tabs (WAI-ARIA tabs pattern): one tab stop, arrow keys / Home / End move between the tabs and
// select them, each tab names the panel it controls.
import { useRef, type KeyboardEvent } from 'react';

export interface TabSpec<K extends string> {
  key: K;
  label: string;
  title?: string;
}

interface Props<K extends string> {
  tabs: TabSpec<K>[];
  selected: K;
  label: string;
  /** Prefix of the tabs' and panels' ids: tab `${idBase}-tab-${key}`, panel `${idBase}-panel-${key}`. */
  idBase: string;
  onSelect(key: K): void;
  className?: string;
}

export function tabIds(idBase: string, key: string): { tab: string; panel: string } {
  return { tab: `${idBase}-tab-${key}`, panel: `${idBase}-panel-${key}` };
}

export function Tabs<K extends string>({ tabs, selected, label, idBase, onSelect, className }: Props<K>) {
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((t) => t.key === selected);
    const next =
      e.key === 'ArrowRight' ? (at + 1) % tabs.length
      : e.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length
      : e.key === 'Home' ? 0
      : e.key === 'End' ? tabs.length - 1
      : -1;
    if (next < 0) return;
    e.preventDefault();
    const key = tabs[next]!.key;
    onSelect(key);
    refs.current.get(key)?.focus();
  };
  return (
    <div className={`tabs ${className ?? ''}`} role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {tabs.map((t) => {
        const ids = tabIds(idBase, t.key);
        const active = t.key === selected;
        return (
          <button
            key={t.key}
            ref={(el) => {
              if (el) refs.current.set(t.key, el);
              else refs.current.delete(t.key);
            }}
            type="button"
            role="tab"
            id={ids.tab}
            aria-selected={active}
            aria-controls={ids.panel}
            tabIndex={active ? 0 : -1}
            title={t.title}
            onClick={() => onSelect(t.key)}
          >
            {t.label}
          </button>
        );
      })}
    </div>
  );
}
