import { describe, expect, it } from 'vitest';
import type { SessionCard } from '../api/types';
import { renderMarkdown } from '../reader/markdown';
import { buildShareHtml, inertMarkup, SHARE_CSP, shareFilename, type SharedPlan } from './shareDocument';

const HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(1)">';

const card: SessionCard = {
  sessionId: '5e55104e-0000-4000-8000-00000000a11c',
  title: `Session ${HOSTILE}`,
  firstPrompt: `Prompt ${HOSTILE}`,
  lastPrompt: null,
  gitBranch: 'feature/"><script>alert(2)</script>',
  cwd: '/home/u/web app',
  project: 'web app',
  version: '2.1.0',
  entrypoint: 'cli',
  firstAt: '2026-01-02T03:04:05.000Z',
  lastAt: '2026-01-02T05:06:07.000Z',
  costUsd: null,
  linesAdded: null,
  linesRemoved: null,
  subagents: [],
  plans: [],
  unreadLines: 0,
  resumeCommand: "cd '/home/u/web app' && claude --resume 5e55104e-0000-4000-8000-00000000a11c",
  kept: false,
};

function plan(bodyHtml: string, over: Partial<SharedPlan> = {}): SharedPlan {
  return { title: `Plan ${HOSTILE}`, filename: 'brave-fox.md', project: 'web app', modified: '2026-01-03T00:00:00.000Z', card, bodyHtml, exportedAt: '2026-01-04T00:00:00.000Z', ...over };
}

/** Every tag of the document, with each attribute name and value. */
function tags(html: string): { name: string; attrs: [string, string][] }[] {
  return Array.from(html.matchAll(/<([a-zA-Z][^\s/>]*)([^<>]*)>/g), (m) => ({
    name: m[1]!.toLowerCase(),
    attrs: Array.from(m[2]!.matchAll(/([^\s"'=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g), (a) => [a[1]!.toLowerCase(), a[2] ?? a[3] ?? a[4] ?? ''] as [string, string]),
  }));
}

function expectInert(html: string): void {
  expect(html).not.toMatch(/<script/i);
  for (const tag of tags(html)) {
    expect(['iframe', 'object', 'embed', 'link', 'base', 'form', 'frame']).not.toContain(tag.name);
    for (const [name, value] of tag.attrs) {
      expect(name, `<${tag.name} ${name}="${value}">`).not.toMatch(/^on/);
      if (['src', 'srcset', 'href', 'xlink:href', 'action', 'formaction', 'poster', 'data'].includes(name)) {
        const plainLink = tag.name === 'a' && name === 'href' && /^(?:https?:|mailto:|#)/i.test(value);
        const local = value.startsWith('#') || (tag.name === 'img' && name === 'src' && /^data:image\//.test(value));
        expect(plainLink || local, `<${tag.name} ${name}="${value}">`).toBe(true);
      }
    }
  }
}

describe('buildShareHtml', () => {
  it('starts with a CSP that allows no request, and carries the card with every field escaped', () => {
    const html = buildShareHtml(plan('<p>Body</p>'));
    expect(html.indexOf('<meta http-equiv="Content-Security-Policy"')).toBe(html.indexOf('<head>') + '<head>\n'.length);
    expect(SHARE_CSP).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; img-src data:/);
    expect(html).toContain('<title>Plan &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</title>');
    expect(html).toContain('<code class="resume-command">cd &#39;/home/u/web app&#39; &amp;&amp; claude --resume 5e55104e-0000-4000-8000-00000000a11c</code>');
    expect(html).toContain('<code>feature/&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;</code>');
    expect(html).toContain('2026-01-02 03:04 UTC to 2026-01-02 05:06 UTC');
    expect(html).toContain('<dt>Project</dt><dd>web app</dd>');
    expect(html).toContain('<article class="markdown-body"><p>Body</p></article>');
    expect(html).not.toMatch(/<link|\/assets\/|@import|url\(/i);
    expectInert(html);
  });

  it('keeps a hostile plan inert through the reader\'s render path', () => {
    const markdown = [
      '# Title <script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '[js](javascript:alert(1)) [data](data:text/html,<script>alert(1)</script>) [ok](https://example.com/page)',
      '![pixel](https://evil.example/pixel.png)',
      '![inline](data:image/png;base64,iVBORw0KGgo=)',
      '<iframe src="https://evil.example/frame"></iframe>',
    ].join('\n\n');
    const html = buildShareHtml(plan(renderMarkdown(markdown).html));
    expectInert(html);
    // The remote image stays a link, as the reader shows it; the plain link stays a link.
    expect(html).toMatch(/<a class="image-link external" href="https:\/\/evil\.example\/pixel\.png"/);
    expect(html).toContain('href="https://example.com/page"');
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(html).not.toMatch(/(?:href|src)="(?:javascript|data:text)/);
  });

  it('strips what a sanitizer would have let through, should one ever fail', () => {
    const raw = [
      '<script >alert(1)</script >',
      '<img src="https://evil.example/x.png" onerror=alert(1) alt="x">',
      '<a href="javascript:alert(1)" onclick="alert(1)">a</a>',
      '<a href="java&#58;script:alert(1)">b</a>',
      '<svg onload="alert(1)"><use xlink:href="https://evil.example/s.svg#a"/><use href="#marker"/><image href="https://evil.example/i.png"/></svg>',
      '<iframe src="https://evil.example"></iframe><object data="https://evil.example/o"></object><embed src="x"><link rel="stylesheet" href="https://evil.example/s.css"><base href="https://evil.example/">',
      '<video poster="https://evil.example/p.png" src="https://evil.example/v.mp4"></video>',
      '<div style="background: url(https://evil.example/bg.png)">bg</div>',
      '<form action="https://evil.example"><button formaction="https://evil.example">go</button></form>',
    ].join('\n');
    const out = inertMarkup(raw);
    expectInert(out);
    expect(out).not.toContain('evil.example');
    expect(out).toContain('<use href="#marker"/>');
    expect(out).toContain('alt="x"');
  });
});

describe('shareFilename', () => {
  it('names the file after the plan', () => {
    expect(shareFilename('brave-fox.md')).toBe('brave-fox.html');
    expect(shareFilename('../odd name?.md')).toBe('odd-name-.html');
    expect(shareFilename('.md')).toBe('plan.html');
  });
});
