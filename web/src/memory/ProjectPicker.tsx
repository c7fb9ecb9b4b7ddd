// Type to find a project's memory among hundreds of sources: the source list, the health overview and
// the reader follow what is typed (the reader moves to the first match when the open source is not
// one). Enter opens the first match; the arrow key moves into the list.
import { useRef } from 'react';
import { formatCount, plural } from '../ui/format';

interface Props {
  value: string;
  matches: number;
  total: number;
  onChange(value: string): void;
  onChooseFirst(): void;
}

export function ProjectPicker({ value, matches, total, onChange, onChooseFirst }: Props) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="project-picker">
      <input
        ref={input}
        type="search"
        className="project-picker-input"
        placeholder={`Find a project (${plural(total, 'source')})`}
        aria-label="Find a project's memory"
        aria-controls="memory-source-list"
        aria-describedby="project-picker-count"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          // Handled here, so the app's own shortcuts leave these keys alone (they skip prevented events).
          if (e.key === 'Enter') {
            e.preventDefault();
            onChooseFirst();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            if (value) onChange('');
            else input.current?.blur();
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            document.querySelector<HTMLElement>('#memory-source-list .source-button')?.focus();
          }
        }}
      />
      <span id="project-picker-count" className="muted project-picker-count" role="status" aria-live="polite">
        {value.trim() ? `${formatCount(matches)} of ${formatCount(total)}` : ''}
      </span>
    </div>
  );
}
