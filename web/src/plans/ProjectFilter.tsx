// Multi-select project filter with the number of plans per project.
import { useEffect, useId, useRef, useState } from 'react';
import { formatCount } from '../ui/format';
import { NO_PROJECT } from './planQuery';

interface Props {
  counts: { project: string; count: number }[];
  selected: readonly string[];
  onChange(projects: string[]): void;
}

export function ProjectFilter({ counts, selected, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const set = new Set(selected);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        ref.current?.querySelector('button')?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown);
    window.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [open]);

  const label =
    selected.length === 0
      ? 'All projects'
      : selected.length === 1
        ? selected[0] === NO_PROJECT
          ? 'No project'
          : selected[0]!
        : `${selected.length} projects`;

  const toggle = (project: string) => {
    const next = new Set(set);
    if (next.has(project)) next.delete(project);
    else next.add(project);
    onChange(counts.map((c) => c.project).filter((p) => next.has(p)));
  };

  return (
    <div className="project-filter" ref={ref}>
      <button
        type="button"
        className={`filter-button${selected.length ? ' active' : ''}`}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        title="Filter by project"
      >
        <span className="muted">Project:</span> {label} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div className="popover" id={id} role="group" aria-label="Projects">
          <div className="popover-actions">
            <button type="button" onClick={() => onChange([])} disabled={selected.length === 0}>
              Show all
            </button>
          </div>
          <ul className="check-list">
            {counts.map(({ project, count }) => (
              <li key={project || '\u0000none'}>
                <label>
                  <input type="checkbox" checked={set.has(project)} onChange={() => toggle(project)} />
                  <span className="check-name">{project === NO_PROJECT ? <em>No project</em> : project}</span>
                  <span className="count">{formatCount(count)}</span>
                </label>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
