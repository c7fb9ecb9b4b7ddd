// The Archive's list from the keyboard, as the plans list is: j/k and the arrows move the selection and open
// the plan, Home/End go to the ends, Enter opens the first plan when none is open.
import { useCommand } from '../ui/commands';

export function useListKeys(rows: readonly { filename: string }[], open: string | null, select: (filename: string) => void): void {
  const at = open === null ? -1 : rows.findIndex((r) => r.filename === open);
  const go = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (row === undefined) return;
    select(row.filename);
    window.setTimeout(() => document.querySelector(`.archive-row[data-filename="${CSS.escape(row.filename)}"]`)?.scrollIntoView({ block: 'nearest' }), 0);
  };
  useCommand('listNext', () => go(at < 0 ? 0 : at + 1));
  useCommand('listPrev', () => go(at < 0 ? rows.length - 1 : at - 1));
  useCommand('listFirst', () => go(0));
  useCommand('listLast', () => go(rows.length - 1));
  useCommand('listOpen', () => {
    if (at < 0) go(0);
    else document.querySelector<HTMLElement>('.archive-reader [role="tabpanel"]')?.focus();
  });
}
