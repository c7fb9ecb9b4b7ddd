// One fix at a time: preview (a diff, nothing written), apply with the preview's hash, undo. When the
// file changed since the preview (409) the new preview replaces the old one, so what is applied is
// always what was shown.
import { useCallback, useRef, useState } from 'react';
import { ApiError, api, describeError } from '../api/client';
import type { FixKind, MemoryFixRequest, MemoryFixResult, MemoryProblem } from '../api/types';
import { problemKey } from './problemText';

export interface FixState {
  /** The problem and fix it is for. */
  key: string;
  request: Omit<MemoryFixRequest, 'apply' | 'hash'>;
  status: 'previewing' | 'ready' | 'applying' | 'error';
  result: MemoryFixResult | null;
  /** Why the last step failed, or a note (the file changed, here is the new preview). */
  note: string | null;
}

export interface AppliedFix {
  undoId: string;
  files: string[];
  sourceId: string;
  kind: FixKind;
}

export interface FixFlow {
  current: FixState | null;
  applied: AppliedFix | null;
  preview(sourceId: string, problem: MemoryProblem, kind: FixKind): void;
  apply(): void;
  cancel(): void;
  undo(): void;
  keyOf(problem: MemoryProblem, kind: FixKind): string;
}

const keyOf = (problem: MemoryProblem, kind: FixKind) => `${problemKey(problem)}\u0000${kind}`;

export function useFixFlow(onChanged: () => void, toast: (text: string, kind?: 'info' | 'success' | 'error') => void): FixFlow {
  const [current, setCurrent] = useState<FixState | null>(null);
  const [applied, setApplied] = useState<AppliedFix | null>(null);
  const latest = useRef<FixState | null>(null);
  latest.current = current;

  const load = useCallback(async (state: FixState, note: string | null) => {
    setCurrent({ ...state, status: 'previewing', note });
    try {
      const result = await api.memoryFix({ ...state.request, apply: false });
      if (latest.current?.key === state.key) setCurrent({ ...state, status: 'ready', result, note });
    } catch (error) {
      if (latest.current?.key === state.key) setCurrent({ ...state, status: 'error', result: null, note: describeError(error) });
    }
  }, []);

  const preview = useCallback((sourceId: string, problem: MemoryProblem, kind: FixKind) => {
    const state: FixState = {
      key: keyOf(problem, kind), request: { sourceId, kind, file: problem.file ?? '', target: problem.target },
      status: 'previewing', result: null, note: null,
    };
    latest.current = state;
    void load(state, null);
  }, [load]);

  const apply = useCallback(() => {
    const state = latest.current;
    if (!state?.result) return;
    const hash = state.result.hash;
    setCurrent({ ...state, status: 'applying' });
    api.memoryFix({ ...state.request, hash, apply: true }).then(
      (result) => {
        setCurrent(null);
        setApplied({ undoId: result.undoId ?? '', files: result.files, sourceId: state.request.sourceId, kind: state.request.kind });
        toast(`Fixed: ${result.files.join(', ')} written`, 'success');
        onChanged();
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 409) {
          void load(state, 'The file changed since the preview: this is the change now. Nothing was written.');
          onChanged();
        } else {
          setCurrent({ ...state, status: 'error', note: describeError(error) });
        }
      },
    );
  }, [load, onChanged, toast]);

  const cancel = useCallback(() => setCurrent(null), []);

  const undo = useCallback(() => {
    if (!applied) return;
    api.memoryUndo(applied.undoId).then(
      (result) => {
        setApplied(null);
        toast(result.addToIndex
          ? `Undone: ${result.files.join(', ')} restored; MEMORY.md changed since, so its line was not put back (its orphan finding offers Add to MEMORY.md)`
          : `Undone: ${result.files.join(', ')} restored`, 'success');
        onChanged();
      },
      (error: unknown) => toast(`Could not undo: ${describeError(error)}`, 'error'),
    );
  }, [applied, onChanged, toast]);

  return { current, applied, preview, apply, cancel, undo, keyOf };
}
