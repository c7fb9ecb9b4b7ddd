// A plan as one self-contained HTML file for sharing: its session card on top, the rendered document,
// a small inlined stylesheet, and a CSP that lets the file make no request at all, wherever it is
// opened. Pure (strings in, a string out) so that what the file may hold is testable without a browser.
import type { SessionCard } from '../api/types';

export interface SharedPlan {
  title: string;
  filename: string;
  project: string | null;
  /** ISO time of the plan's last edit. */
  modified: string | null;
  /** The session the plan belongs to, when its log is still there. */
  card: SessionCard | null;
  /** Rendered markdown, already sanitized by the reader's own render path. */
  bodyHtml: string;
  /** ISO time of the export. */
  exportedAt: string;
}

/** Blocks every fetch, frame, font, script and remote image; inline styles and data: images only. */
export const SHARE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** `2026-01-02 03:04 UTC`: the same text for every reader of the file, whatever their locale. */
export function shareTime(iso: string | null): string | null {
  if (iso === null) return null;
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : `${t.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The download's name: the plan's file name with .html instead of .md, nothing a file system minds. */
export function shareFilename(planFilename: string): string {
  const base = planFilename.replace(/\.md$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return `${base || 'plan'}.html`;
}

const DROPPED_TAGS = /<\/?(?:script|iframe|frame|frameset|object|embed|link|meta|base|form|noscript|template|portal)\b[^<>]*>/gi;
const ATTRIBUTE = /(\s)([^\s"'<>/=]+)(\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>`]+))?/g;
const URL_ATTRIBUTES = new Set(['src', 'srcset', 'href', 'xlink:href', 'action', 'formaction', 'poster', 'background', 'data', 'ping', 'lowsrc', 'dynsrc', 'manifest', 'codebase', 'cite', 'longdesc', 'usemap']);
const PLAIN_LINK = /^(?:https?:|mailto:|#)/i;
const INLINE_IMAGE = /^data:image\/(?:gif|png|jpeg|webp);/i;

function unquote(value: string): string {
  const v = value.replace(/^\s*=\s*/, '');
  return (v.startsWith('"') || v.startsWith("'") ? v.slice(1, -1) : v).replace(/&colon;|&#0*58;|&#x0*3a;/gi, ':').trim();
}

function inertTag(tag: string): string {
  const name = /^<([a-zA-Z][^\s/>]*)/.exec(tag)![1]!.toLowerCase();
  return tag.replace(ATTRIBUTE, (whole, space: string, attr: string, value: string | undefined) => {
    const a = attr.toLowerCase();
    if (a.startsWith('on') || a === 'style' && /url\s*\(|expression\s*\(/i.test(value ?? '')) return space;
    if (!URL_ATTRIBUTES.has(a)) return whole;
    const url = unquote(value ?? '');
    if (a === 'href' && name === 'a' && PLAIN_LINK.test(url)) return whole;
    // Fragment references inside a diagram (markers, gradients) and inline images stay; anything else
    // would be a request (or a script URL) and goes.
    if ((a === 'href' || a === 'xlink:href') && url.startsWith('#')) return whole;
    if (a === 'src' && name === 'img' && INLINE_IMAGE.test(url)) return whole;
    return space;
  });
}

/**
 * A second gate after the reader's sanitizer, for markup leaving the app: no script or frame-like
 * element, no event handler, no URL that loads anything (links to http(s) and mailto stay links).
 * Serialized markup escapes `<` and `>` in text, so every `<…>` span is a tag.
 */
export function inertMarkup(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, '')
    .replace(DROPPED_TAGS, '')
    .replace(/<[a-zA-Z][^<>]*>/g, inertTag);
}

const STYLE = `
:root { color-scheme: light; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #fff; }
main { max-width: 52rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; }
a { color: #0550ae; }
code, pre, kbd { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
:not(pre) > code { background: #f3f4f6; padding: .1em .3em; border-radius: 4px; }
pre { background: #f6f8fa; border: 1px solid #d8dee4; border-radius: 6px; padding: .8rem 1rem; overflow-x: auto; white-space: pre; }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: .3rem .7rem; text-align: left; }
blockquote { margin: 1rem 0; padding: 0 1rem; border-left: 4px solid #d0d7de; color: #57606a; }
img, svg { max-width: 100%; height: auto; }
h1, h2, h3, h4 { line-height: 1.25; margin: 1.6em 0 .6em; }
.shared-card { border: 1px solid #d0d7de; border-radius: 8px; padding: 1rem 1.2rem; margin-bottom: 2rem; background: #f6f8fa; }
.shared-card h1 { margin: 0 0 .4rem; font-size: 1.6rem; }
.shared-card dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .6rem 0 0; }
.shared-card dt { color: #57606a; }
.shared-card dd { margin: 0; overflow-wrap: anywhere; }
.image-tag { font-size: .75em; text-transform: uppercase; border: 1px solid currentColor; border-radius: 3px; padding: 0 .25em; }
.mermaid-block svg { display: block; margin: 1rem auto; }
.task-list-item { list-style: none; }
.shared-footer { margin-top: 3rem; color: #57606a; font-size: .85em; }
@media print {
  main { max-width: none; padding: 0; }
  .shared-card { background: none; break-inside: avoid; }
  pre { white-space: pre-wrap; break-inside: avoid; }
  a[href^="http"]::after { content: " (" attr(href) ")"; font-size: .85em; color: #57606a; }
}
`;

function field(label: string, value: string | null): string {
  return value === null || value === '' ? '' : `<dt>${escapeHtml(label)}</dt><dd>${value}</dd>`;
}

const text = (s: string | null): string | null => (s === null ? null : escapeHtml(s));
const code = (s: string | null): string | null => (s === null ? null : `<code>${escapeHtml(s)}</code>`);

function sessionCard(plan: SharedPlan): string {
  const c = plan.card;
  const when = c ? [shareTime(c.firstAt), c.lastAt !== c.firstAt ? shareTime(c.lastAt) : null].filter(Boolean).join(' to ') : '';
  return [
    '<header class="shared-card" aria-label="Plan and session">',
    `<h1>${escapeHtml(plan.title)}</h1>`,
    '<dl>',
    field('Plan', code(plan.filename)),
    field('Project', text(plan.project ?? c?.project ?? null)),
    field('Edited', text(shareTime(plan.modified))),
    c ? field('Session', c.title !== null ? `${escapeHtml(c.title)} (<code>${escapeHtml(c.sessionId)}</code>)` : code(c.sessionId)) : '',
    c ? field('Folder', code(c.cwd)) : '',
    c ? field('Branch', code(c.gitBranch)) : '',
    c ? field('When', text(when)) : '',
    c ? field('First prompt', text(c.firstPrompt)) : '',
    c ? field('Resume', `<code class="resume-command">${escapeHtml(c.resumeCommand)}</code>`) : '',
    '</dl>',
    '</header>',
  ].join('');
}

/** The whole file. */
export function buildShareHtml(plan: SharedPlan): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    // First in <head>: nothing before it can load.
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(SHARE_CSP)}">`,
    '<meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(plan.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    sessionCard(plan),
    `<article class="markdown-body">${inertMarkup(plan.bodyHtml)}</article>`,
    `<footer class="shared-footer">Exported from Plan &amp; Memory Viewer on ${escapeHtml(shareTime(plan.exportedAt) ?? plan.exportedAt)}.</footer>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
