// The open plan: title, project badge (→ that project's memory), session chip, dates, actions
// (copy markdown, copy path, open in editor, full screen) and the rendered document.
import { useCallback, useMemo } from 'react';
import type { MemorySource, PlanMetadata } from '../api/types';
import { describeError } from '../api/client';
import type { ContentState } from '../state/useRemote';
import { planHref } from '../state/url';
import { DocumentView, type RenderOptions } from '../reader/DocumentView';
import type { ResolvedLink } from '../reader/markdown';
import { Highlight } from '../search/Highlight';
import { copyWithToast, openInEditor } from '../ui/actions';
import { useCommand } from '../ui/commands';
import { exactTime, formatBytes, formatCount, relativeTime } from '../ui/format';
import { useToast } from '../ui/Toasts';
import { SessionChip } from './SessionChip';

interface Props {
  filename: string;
  plan: PlanMetadata | null;
  content: ContentState;
  planFiles: ReadonlySet<string>;
  sources: MemorySource[];
  query: string;
  dark: boolean;
  fullscreen: boolean;
  onToggleFullscreen(): void;
  onOpenPlan(filename: string): void;
  onOpenProjectMemory(sourceId: string): void;
  onNavigate(nav: string): void;
  onClose(): void;
}

export function projectSource(sources: MemorySource[], project: string | null): MemorySource | null {
  if (!project) return null;
  const matches = sources.filter((s) => s.project === project);
  return matches.find((s) => s.active) ?? matches[0] ?? null;
}

export function PlanReader(props: Props) {
  const { filename, plan, content, planFiles, sources, query, dark } = props;
  const toast = useToast();
  const source = projectSource(sources, plan?.project ?? null);
  const cwd = source?.cwd ?? null;

  const options = useMemo<RenderOptions>(
    () => ({
      resolveHref: (href: string): ResolvedLink | null => {
        let name = href.split('#')[0]!.split('?')[0]!.replace(/^\.\//, '');
        try {
          name = decodeURIComponent(name);
        } catch {
          // keep it as written
        }
        if (planFiles.has(name)) return { kind: 'nav', href: planHref(name), nav: `plan:${name}`, title: `Open plan ${name}` };
        return null;
      },
    }),
    [planFiles],
  );

  const text = content.key === filename ? content.text : null;
  const copyMarkdown = useCallback(() => {
    if (text !== null) void copyWithToast(text, 'the markdown', toast);
  }, [text, toast]);
  const copyPath = useCallback(() => {
    if (plan) void copyWithToast(plan.filepath, 'the path', toast);
  }, [plan, toast]);
  const open = useCallback(() => {
    if (plan) void openInEditor(plan.filepath, toast);
  }, [plan, toast]);
  useCommand('copyMarkdown', copyMarkdown);
  useCommand('copyPath', copyPath);
  useCommand('openInEditor', open);

  const title = plan?.title || filename;
  return (
    <section className="reader" aria-label={`Plan ${title}`}>
      <header className="reader-header">
        {/* Narrow screens show the list or the reader, not both: this is the way back. */}
        <button type="button" className="back-button" onClick={props.onClose} aria-label="Back to the plans list">
          ← Plans
        </button>
        <div className="reader-titles">
          <h1 className="reader-title">
            <Highlight text={title} query={query} />
          </h1>
          <div className="reader-meta">
            <span className="filename" title={plan?.filepath}>
              <Highlight text={filename} query={query} />
            </span>
            {plan?.project && (
              <button
                type="button"
                className="chip project-chip"
                disabled={!source}
                onClick={() => source && props.onOpenProjectMemory(source.id)}
                title={source ? `Show the memory of ${plan.project}` : `No auto memory found for ${plan.project}`}
                aria-label={`Project ${plan.project}${source ? ': show its memory' : ''}`}
              >
                <Highlight text={plan.project} query={query} />
              </button>
            )}
            {plan?.sessionId && <SessionChip sessionId={plan.sessionId} cwd={cwd} />}
            {plan && (
              <span className="muted" title={exactTime(plan.modified)}>
                edited {relativeTime(plan.modified)}
              </span>
            )}
            {plan && (
              <span className="muted">
                {formatCount(plan.lineCount)} lines · {formatCount(plan.wordCount)} words · {formatBytes(plan.size)}
              </span>
            )}
          </div>
        </div>
        <div className="reader-actions" role="toolbar" aria-label="Plan actions">
          <button type="button" onClick={copyMarkdown} disabled={text === null} title="Copy markdown (c)">
            Copy markdown
          </button>
          <button type="button" onClick={copyPath} disabled={!plan} title="Copy path (p)">
            Copy path
          </button>
          <button type="button" onClick={open} disabled={!plan} title="Open in editor (Enter)">
            Open in editor
          </button>
          <button type="button" className="fullscreen-button" onClick={props.onToggleFullscreen} aria-pressed={props.fullscreen} title="Full screen (f)">
            {props.fullscreen ? 'Exit full screen' : 'Full screen'}
          </button>
          <button type="button" className="icon-button close-button" onClick={props.onClose} aria-label="Close the plan" title="Close (Esc)">
            ✕
          </button>
        </div>
      </header>
      {content.status === 'missing' ? (
        <div className="state-panel">
          <h2>This plan is gone</h2>
          <p>{filename} was deleted or renamed on disk. Pick another plan from the list.</p>
        </div>
      ) : content.status === 'error' ? (
        <div className="state-panel error">
          <h2>Could not load this plan</h2>
          <p>{describeError(content.error)}</p>
          <button type="button" onClick={content.retry}>Retry</button>
        </div>
      ) : text === null ? (
        <div className="state-panel loading" aria-busy="true">
          Loading plan…
        </div>
      ) : (
        <DocumentView
          docKey={filename}
          markdown={text}
          options={options}
          query={query}
          dark={dark}
          onNavigate={props.onNavigate}
          onLocalLink={(t) => toast(t || 'That link points to a file on disk, which the viewer does not serve')}
        />
      )}
    </section>
  );
}
