// "Fix all N" of one kind of finding in one source: the combined change previewed as one diff over every
// file, applied with the preview's hash, undone as one fix (the recent fixes list). When a file changed
// since the preview, the new preview replaces it and nothing is written.
import { useState } from 'react';
import { ApiError, api, describeError } from '../api/client';
import type { MemoryFixAllResult, ProblemKind } from '../api/types';
import { plural } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { FixPreview, type PreviewState } from './FixPreview';
import { KIND_LABEL } from './problemText';

interface Props {
  sourceId: string;
  project: string;
  kind: ProblemKind;
  /** The findings of the kind with a fix. */
  count: number;
  onChanged(): void;
}

interface State extends PreviewState {
  result: MemoryFixAllResult | null;
}

export function FixAll({ sourceId, project, kind, count, onChanged }: Props) {
  const toast = useToast();
  const [state, setState] = useState<State | null>(null);
  const preview = (note: string | null) => {
    setState({ status: 'previewing', result: null, note });
    api.memoryFixAll({ sourceId, kind, apply: false }).then(
      (result) => setState({ status: 'ready', result, note }),
      (error: unknown) => setState({ status: 'error', result: null, note: describeError(error) }),
    );
  };
  const apply = () => {
    if (!state?.result) return;
    setState({ ...state, status: 'applying' });
    api.memoryFixAll({ sourceId, kind, apply: true, hash: state.result.hash }).then(
      (result) => {
        setState(null);
        toast(`Fixed ${plural(result.count, `${KIND_LABEL[kind]} finding`)} in ${project}: ${result.files.join(', ')} written`, 'success');
        onChanged();
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 409) {
          preview(`${describeError(error)}. This is the change now.`);
          onChanged();
        } else {
          setState({ ...state, status: 'error', note: describeError(error) });
        }
      },
    );
  };
  const label = `Fix all ${count}`;
  if (state === null) {
    return <button type="button" className="fix-button fix-all" onClick={() => preview(null)}>{label}…</button>;
  }
  return (
    <FixPreview
      label={`fix all ${KIND_LABEL[kind]} findings in ${project}`}
      state={state}
      onApply={apply}
      onCancel={() => setState(null)}
      explanation={state.result === null ? '' : `One change fixes ${plural(state.result.count, 'finding')} in ${plural(state.result.files.length, 'file')}. Nothing is written until you apply it; one undo takes all of it back.`}
      className="fix-all-preview"
    />
  );
}
