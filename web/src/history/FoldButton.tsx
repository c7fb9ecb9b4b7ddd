// In place of a folded stretch of unchanged lines or blocks: says how many, and shows them on click.
import { formatCount } from '../ui/format';

export function FoldButton({ count, unit, onOpen }: { count: number; unit: string; onOpen(): void }) {
  return (
    <div className="diff-fold">
      <button type="button" onClick={onOpen}>
        Show {formatCount(count)} {unit}
        {count === 1 ? '' : 's'}
      </button>
    </div>
  );
}
