// Multi-select project filter with the number of plans per project. A home can have hundreds of
// projects, so the popup is a combobox: type to narrow the list, ↑ ↓ to move, Enter to tick or untick,
// Esc to close (the ARIA combobox pattern with a multi-select listbox).
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { foldCase } from '../search/fold';
import { formatCount, plural } from '../ui/format';
import { NO_PROJECT } from './planQuery';

interface Props {
  counts: { project: string; count: number }[];
  selected: readonly string[];
  onChange(projects: string[]): void;
}

const PAGE = 10;

function projectName(project: string): string {
  return project === NO_PROJECT ? 'No project' : project;
}

export function ProjectFilter({ counts, selected, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const set = new Set(selected);

  const shown = useMemo(() => {
    const q = foldCase(text.trim());
    return q ? counts.filter((c) => foldCase(projectName(c.project)).includes(q)) : counts;
  }, [counts, text]);
  const activeIndex = Math.min(active, shown.length - 1);
  const optionId = (i: number) => `${id}-option-${i}`;

  const close = (refocus: boolean) => {
    setOpen(false);
    setText('');
    setActive(0);
    if (refocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) close(false);
    };
    // Esc from anywhere in the popup (the "Show all" button, a clicked option) closes it too.
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || !ref.current?.contains(document.activeElement)) return;
      e.preventDefault();
      e.stopPropagation();
      close(true);
    };
    document.addEventListener('pointerdown', onDown);
    window.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [open]);

  // Opened, typing goes to the text field. Focused here, not by autoFocus: Preact (web/vite.config.ts)
  // leaves autoFocus to the browser, which ignores it on an element added to a page already in use.
  useLayoutEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  // Keep the active option in view as the arrows move it.
  useEffect(() => {
    if (open && activeIndex >= 0) document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: 'nearest' });
  });

  const label =
    selected.length === 0
      ? 'All projects'
      : selected.length === 1
        ? projectName(selected[0]!)
        : `${selected.length} projects`;

  const toggle = (project: string) => {
    const next = new Set(set);
    if (next.has(project)) next.delete(project);
    else next.add(project);
    onChange(counts.map((c) => c.project).filter((p) => next.has(p)));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: PAGE, PageUp: -PAGE };
    if (e.key in moves) {
      setActive(Math.max(0, Math.min(last, activeIndex + moves[e.key]!)));
    } else if (e.key === 'Enter') {
      const option = shown[activeIndex];
      if (option) toggle(option.project);
    } else if (e.key === 'Escape') {
      close(true);
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div className="project-filter" ref={ref}>
      <button
        ref={buttonRef}
        type="button"
        className={`filter-button${selected.length ? ' active' : ''}`}
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => (open ? close(false) : setOpen(true))}
        title="Filter by project"
      >
        <span className="filter-label">Project:</span> <span className="filter-value">{label}</span> <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="popover" role="group" aria-label="Filter by project">
          <div className="popover-actions">
            <input
              ref={inputRef}
              type="text"
              className="filter-input"
              role="combobox"
              aria-label="Projects: type to filter"
              aria-expanded="true"
              aria-controls={`${id}-list`}
              aria-autocomplete="list"
              aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
              placeholder={`Filter ${plural(counts.length, 'project')}`}
              value={text}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => {
                setText(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
            />
            <button type="button" onClick={() => onChange([])} disabled={selected.length === 0}>
              Show all
            </button>
          </div>
          {shown.length > 0 && (
          <ul className="check-list" id={`${id}-list`} role="listbox" aria-label="Projects" aria-multiselectable="true">
            {shown.map(({ project, count }, i) => (
              <li
                key={project || '\u0000none'}
                id={optionId(i)}
                role="option"
                aria-selected={set.has(project)}
                className={`check-option${i === activeIndex ? ' active' : ''}`}
                title={projectName(project)}
                // Keep the focus in the text field: a click ticks the option, typing goes on.
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => {
                  setActive(i);
                  toggle(project);
                }}
              >
                <span className="check-box" aria-hidden="true">{set.has(project) ? '✓' : ''}</span>
                <span className="check-name">{project === NO_PROJECT ? <em>No project</em> : project}</span>
                <span className="count">{formatCount(count)}</span>
              </li>
            ))}
          </ul>
          )}
          {shown.length === 0 && <p className="muted filter-none">No project has “{text.trim()}” in its name.</p>}
        </div>
      )}
    </div>
  );
}
