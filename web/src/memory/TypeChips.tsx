// Type filter chips (user, feedback, project, reference, untyped) with counts.
import { formatCount } from '../ui/format';
import { TYPE_KEYS, type TypeKey } from './memoryQuery';

interface Props {
  counts: Record<TypeKey, number>;
  /** Every entry the search and picker keep, MEMORY.md files included (they have no type). */
  all: number;
  selected: readonly string[];
  onChange(types: string[]): void;
}

const LABELS: Record<TypeKey, string> = { user: 'user', feedback: 'feedback', project: 'project', reference: 'reference', none: 'no type' };

export function TypeChips({ counts, all, selected, onChange }: Props) {
  const set = new Set(selected);
  return (
    <div className="type-chips" role="group" aria-label="Filter by memory type">
      <button type="button" className={`chip${selected.length === 0 ? ' on' : ''}`} aria-pressed={selected.length === 0} onClick={() => onChange([])}>
        all <span className="count">{formatCount(all)}</span>
      </button>
      {TYPE_KEYS.map((key) => (
        <button
          key={key}
          type="button"
          className={`chip type-chip type-${key}${set.has(key) ? ' on' : ''}`}
          aria-pressed={set.has(key)}
          disabled={counts[key] === 0 && !set.has(key)}
          onClick={() => {
            const next = new Set(set);
            if (next.has(key)) next.delete(key);
            else next.add(key);
            onChange(TYPE_KEYS.filter((k) => next.has(k)));
          }}
        >
          {LABELS[key]} <span className="count">{formatCount(counts[key])}</span>
        </button>
      ))}
    </div>
  );
}
