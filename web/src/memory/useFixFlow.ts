// One fix at a time: preview (a diff, nothing written), apply with the preview's hash, undo. When the
// file changed since the preview (409) the new preview replaces the old one, so what is applied is
// always what was shown. Putting a bulk change back (POST /api/memory/changes/{id}/restore) goes the same way.
import { useCallback, useRef, useState } from 'react';
import { ApiError, api, describeError } from '../api/client';
import type { FixKind, MemoryFixResult, MemoryProblem, RecordKind } from '../api/types';
import { FIX_LABEL, problemKey } from './problemText';

/** A fix's answer; a restore's also names the files it leaves as they are. */
export type FlowResult = MemoryFixResult & { skipped?: string[] };

export interface FixState {
  /** The problem and fix it is for (or the bulk change). */
  key: string;
  /** What the change is, for people. */
  label: string;
  sourceId: string;
  kind: RecordKind;
  /** Asks the service for the preview, or to apply it with the preview's hash. */
  send(apply: boolean, hash?: string): Promise<FlowResult>;
  status: 'previewing' | 'ready' | 'applying' | 'error';
  result: FlowResult | null;
  /** Why the last step failed, or a note (the file changed, here is the new preview). */
  note: string | null;
}

export interface AppliedFix {
  undoId: string;
  files: string[];
  sourceId: string;
  kind: RecordKind;
}

export interface FixFlow {
  current: FixState | null;
  applied: AppliedFix | null;
  preview(sourceId: string, problem: MemoryProblem, kind: FixKind): void;
  /** Previews putting a bulk change back (its key: restoreKey(changeId)). */
  previewRestore(sourceId: string, changeId: string, label: string): void;
  apply(): void;
  cancel(): void;
  undo(): void;
  keyOf(problem: MemoryProblem, kind: FixKind): string;
}

/** FixPreview's props for the flow's open change: its label and state, Apply and Cancel. */
export function flowPreview(open: FixState, fixes: Pick<FixFlow, 'apply' | 'cancel'>) {
  return { label: open.label, state: open, onApply: fixes.apply, onCancel: fixes.cancel };
}

const keyOf = (problem: MemoryProblem, kind: FixKind) => `${problemKey(problem)}\u0000${kind}`;
export const restoreKey = (changeId: string) => `restore-bulk\u0000${changeId}`;

export function useFixFlow(onChanged: () => void, toast: (text: string, kind?: 'info' | 'success' | 'error') => void): FixFlow {
  const [current, setCurrent] = useState<FixState | null>(null);
  const [applied, setApplied] = useState<AppliedFix | null>(null);
  const latest = useRef<FixState | null>(null);
  latest.current = current;

  const load = useCallback(async (state: FixState, note: string | null) => {
    setCurrent({ ...state, status: 'previewing', note });
    try {
      const result = await state.send(false);
      if (latest.current?.key === state.key) setCurrent({ ...state, status: 'ready', result, note });
    } catch (error) {
      if (latest.current?.key === state.key) setCurrent({ ...state, status: 'error', result: null, note: describeError(error) });
    }
  }, []);

  const preview = useCallback((sourceId: string, problem: MemoryProblem, kind: FixKind) => {
    const request = { sourceId, kind, file: problem.file ?? '', target: problem.target };
    const state: FixState = {
      key: keyOf(problem, kind), label: FIX_LABEL[kind], sourceId, kind,
      send: (apply, hash) => api.memoryFix({ ...request, apply, ...(hash === undefined ? {} : { hash }) }),
      status: 'previewing', result: null, note: null,
    };
    latest.current = state;
    void load(state, null);
  }, [load]);

  const previewRestore = useCallback((sourceId: string, changeId: string, label: string) => {
    const state: FixState = {
      key: restoreKey(changeId), label, sourceId, kind: 'restore-bulk',
      send: (apply, hash) => api.memoryChangeRestore(changeId, { apply, ...(hash === undefined ? {} : { hash }) }),
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
    state.send(true, hash).then(
      (result) => {
        setCurrent(null);
        setApplied({ undoId: result.undoId ?? '', files: result.files, sourceId: state.sourceId, kind: state.kind });
        toast(`${state.kind === 'restore-bulk' ? 'Put back' : 'Fixed'}: ${result.files.join(', ')} written`, 'success');
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

  return { current, applied, preview, previewRestore, apply, cancel, undo, keyOf };
}
