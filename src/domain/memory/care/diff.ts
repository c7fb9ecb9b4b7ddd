// Unified diffs of memory files, for the preview of a fix: what a person reviews before anything is
// written. Line based (Myers' O(ND) algorithm); a file that is created or removed diffs against
// /dev/null. Files here are at most LARGE_FILE_BYTES and the changes small, so D stays small; past
// MAX_EDIT_DISTANCE the whole file is shown as replaced rather than searched further.

const CONTEXT = 3;
const MAX_EDIT_DISTANCE = 1000;

type Op = { kind: ' ' | '-' | '+'; text: string };

/** Lines without their `\n`; a final line without one is marked as git marks it. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  else lines[lines.length - 1] += '\n\\ No newline at end of file';
  return lines;
}

/** The shortest edit script from `a` to `b` (Myers), or null past MAX_EDIT_DISTANCE. */
function editScript(a: string[], b: string[]): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, offset, d);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], a: string[], b: string[], offset: number, dEnd: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', text: a[--x]! });
      y--;
    }
    if (x === prevX) ops.push({ kind: '+', text: b[--y]! });
    else ops.push({ kind: '-', text: a[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', text: a[--x]! });
    y--;
  }
  return ops.reverse();
}

/**
 * A unified diff of one file, '' when nothing changes. `before`/`after` null: the file does not exist.
 * `note` follows the old name after a tab, where diff puts a timestamp: what the name is (a symlink).
 */
export function unifiedDiff(file: string, before: string | null, after: string | null, note: string | null = null): string {
  if (before === after) return '';
  const a = splitLines(before ?? '');
  const b = splitLines(after ?? '');
  // A file created or removed is all one side: nothing to search.
  const ops = (a.length === 0 || b.length === 0 ? null : editScript(a, b)) ?? [...a.map((text) => ({ kind: '-' as const, text })), ...b.map((text) => ({ kind: '+' as const, text }))];
  const head = `--- ${before === null ? '/dev/null' : `a/${file}`}${note === null ? '' : `\t${note}`}\n+++ ${after === null ? '/dev/null' : `b/${file}`}\n`;
  return head + hunks(ops).join('');
}

function hunks(ops: Op[]): string[] {
  const out: string[] = [];
  // Old and new line numbers before each op.
  const at: { a: number; b: number }[] = [];
  let la = 0;
  let lb = 0;
  for (const op of ops) {
    at.push({ a: la, b: lb });
    if (op.kind !== '+') la++;
    if (op.kind !== '-') lb++;
  }
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === ' ') {
      i++;
      continue;
    }
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    // Extend over changes closer than two contexts apart.
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== ' ') end++;
      let next = end;
      while (next < ops.length && ops[next]!.kind === ' ') next++;
      if (next < ops.length && next - end <= 2 * CONTEXT) end = next;
      else break;
    }
    const stop = Math.min(ops.length, end + CONTEXT);
    const slice = ops.slice(start, stop);
    const oldCount = slice.filter((o) => o.kind !== '+').length;
    const newCount = slice.filter((o) => o.kind !== '-').length;
    const oldStart = oldCount === 0 ? at[start]!.a : at[start]!.a + 1;
    const newStart = newCount === 0 ? at[start]!.b : at[start]!.b + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n`);
    for (const op of slice) out.push(`${op.kind}${op.text.endsWith('\n') ? op.text : `${op.text}\n`}`);
    i = stop;
  }
  return out;
}
