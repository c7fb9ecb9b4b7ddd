import { describe, expect, it } from 'vitest';
import { isSafeUrl, MAX_NESTING, renderMarkdown, slugify } from './markdown';

describe('renderMarkdown', () => {
  it('renders GFM tables, strikethrough, task lists and autolinks', () => {
    const { html } = renderMarkdown(
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~\n\n- [x] done\n- [ ] todo\n\nSee https://example.com now',
    );
    expect(html).toContain('<table tabindex="0">');
    expect(html).toContain('<s>old</s>');
    expect(html).toMatch(/<input class="task-list-item-checkbox" checked="" disabled="" type="checkbox"/);
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow" class="external">');
  });

  it('keeps raw HTML and dangerous links as text', () => {
    const { html } = renderMarkdown(
      '<script>window.__x=1</script>\n\n<img src=x onerror="window.__x=2">\n\n[click](javascript:alert(1)) [d](data:text/html,x) [v](vbscript:x)',
    );
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toMatch(/href="(javascript|data|vbscript):/i);
    expect(html).toContain('[click](javascript:alert(1))');
  });

  it('never loads remote images', () => {
    const { html } = renderMarkdown('![pixel](https://tracker.example/p.png) ![local](./a.png)');
    expect(html).not.toContain('<img');
    expect(html).toContain('class="image-link external"');
  });

  it('highlights code, leaves mermaid as a placeholder and counts it', () => {
    const r = renderMarkdown('```ts\nconst a: number = 1;\n```\n\n```mermaid\ngraph TD; A-->B\n```\n');
    expect(r.html).toContain('<span class="hljs-keyword">const</span>');
    expect(r.html).toContain('<div class="mermaid-block"><pre class="mermaid-source"><code>graph TD; A--&#62;B');
    expect(r.mermaidCount).toBe(1);
  });

  it('shows a huge or explosive code block as plain text instead of highlighting it', () => {
    const brackets = '['.repeat(190_000);
    const huge = renderMarkdown(`\`\`\`json\n${brackets}\n\`\`\`\n`).html;
    expect(huge).not.toContain('<span');
    expect(huge.length).toBeLessThan(brackets.length * 2);
    const tight = '[{'.repeat(10_000);
    expect(renderMarkdown(`\`\`\`json\n${tight}\n\`\`\`\n`).html.length).toBeLessThan(tight.length * 13 + 2000);
    expect(renderMarkdown('```json\n{"a": [1, 2]}\n```\n').html).toContain('<span class="hljs-attr">');
  });

  it('collects headings with unique ids for the outline', () => {
    const r = renderMarkdown('# Plan: Dark mode\n## Steps\n## Steps\n### `code` heading');
    expect(r.headings).toEqual([
      { level: 1, text: 'Plan: Dark mode', id: 'h-plan-dark-mode' },
      { level: 2, text: 'Steps', id: 'h-steps' },
      { level: 2, text: 'Steps', id: 'h-steps-2' },
      { level: 3, text: 'code heading', id: 'h-code-heading' },
    ]);
    expect(r.html).toContain('<h2 id="h-steps-2">');
  });

  it('routes relative links through the resolver and marks broken ones', () => {
    const r = renderMarkdown('[a](a.md) [b](missing.md) [c](src/x.ts) [top](#steps)', {
      resolveHref: (href) =>
        href === 'a.md' ? { kind: 'nav', href: '?plan=a.md', nav: 'plan:a.md' } : href.endsWith('.md') ? { kind: 'broken', reason: 'gone' } : null,
    });
    expect(r.html).toContain('<a href="?plan=a.md" data-nav="plan:a.md" class="in-app">a</a>');
    expect(r.html).toContain('<a class="broken-link" data-broken="1" data-target="missing.md" title="Broken link: gone">b</a>');
    expect(r.html).toContain('data-nav="none"');
    expect(r.html).toContain('data-nav="anchor:h-steps"');
  });

  it('renders wikilinks only when enabled, resolved or marked broken', () => {
    const opts = {
      wikilinks: true,
      resolveWiki: (t: string) =>
        t === 'user-role' ? { kind: 'nav' as const, href: '?e=1', nav: 'entry:s/user-role.md' } : { kind: 'broken' as const, reason: `no ${t}` },
    };
    const r = renderMarkdown('See [[user-role|the role]] and [[ghost]] and `[[code]]`', opts);
    expect(r.html).toContain('<a class="wikilink in-app" href="?e=1" data-nav="entry:s/user-role.md" title="user-role">the role</a>');
    expect(r.html).toContain('<span class="wikilink broken-link" data-broken="1" data-target="ghost" title="Broken link: no ghost">ghost');
    expect(r.html).toContain('<code>[[code]]</code>');
    expect(renderMarkdown('[[user-role]]').html).toContain('[[user-role]]');
  });

  it('finds wikilinks where the service does: embeds, empty targets and escaped brackets are text', () => {
    const opts = { wikilinks: true, resolveWiki: (t: string) => ({ kind: 'nav' as const, href: `?e=${t}`, nav: `entry:s/${t}` }) };
    const r = renderMarkdown('![[pic.png]] \\![[bang]] \\[[escaped]] [[|alias]](x.md) [[a#h|b]]', opts);
    expect([...r.html.matchAll(/data-nav="([^"]*)"/g)].map((m) => m[1])).toEqual(['entry:s/bang', 'entry:s/a']);
    // `[[|alias]]` names nothing, and stays text rather than becoming the label of a link to x.md.
    expect(r.html).toContain('[[|alias]](x.md)');
    expect(r.html).not.toContain('href="x.md"');
  });

  it('stops nesting blocks at MAX_NESTING levels however deep the source goes', () => {
    for (const src of ['>'.repeat(100_000) + ' x', '> '.repeat(100_000) + 'x', '- '.repeat(50_000) + 'x', '1. '.repeat(30_000) + 'x']) {
      const { html } = renderMarkdown(src);
      for (const tag of ['blockquote', 'ul', 'ol']) expect(html.split(`<${tag}>`).length - 1).toBeLessThanOrEqual(MAX_NESTING);
    }
    // Emphasis is paired by a loop, not by recursion: deep runs render (the browser flattens the tags).
    expect(renderMarkdown(`${'*'.repeat(50_000)}x${'*'.repeat(50_000)}`).html).toContain('x');
  });

  it('draws the cut marker before the first unread block and dims what follows', () => {
    const src = ['# Memory', '- [A](a.md)', '- [B](b.md)', '- [C](c.md)', '', 'tail paragraph'].join('\n');
    const { html } = renderMarkdown(src, { cut: { line: 2, midLine: false, label: 'stops here' } });
    const markerAt = html.indexOf('cut-marker');
    expect(markerAt).toBeGreaterThan(html.indexOf('a.md'));
    expect(markerAt).toBeLessThan(html.indexOf('b.md'));
    expect(html).toContain('<li class="cut-marker-item"><div class="cut-marker" role="separator" aria-label="stops here">');
    expect(html).toMatch(/<li class="past-cut">\s*<a href="b.md"/);
    expect(html).toContain('<p class="past-cut">tail paragraph</p>');
    expect(html).not.toMatch(/<li class="past-cut">\s*<a href="a.md"/);
  });

  it('marks a block the cut falls inside', () => {
    const { html } = renderMarkdown('line one\nline two\nline three', { cut: { line: 1, midLine: false, label: 'x' } });
    expect(html).toContain('<p class="straddles-cut">');
  });
});

describe('source lines', () => {
  it('marks each block with the source line it starts on, only when asked', () => {
    const src = '# T\n\npara one\nline two\n\n- a\n- b\n\n```ts\nconst a = 1;\n```\n\n> quote\n\n| a |\n|---|\n| 1 |\n';
    const { html } = renderMarkdown(src, { sourceLines: true });
    expect(html).toContain('<h1 id="h-t" data-line="1">');
    expect(html).toContain('<p data-line="3">para one\nline two</p>');
    expect(html).toContain('<li data-line="7">b</li>');
    expect(html).toContain('<code data-line="9" class="language-ts">');
    expect(html).toContain('<blockquote data-line="13">');
    expect(html).toContain('<tr data-line="17">');
    expect(renderMarkdown(src).html).not.toContain('data-line');
  });
});

describe('helpers', () => {
  it('allows only http, https, mailto and relative URLs', () => {
    for (const ok of ['https://a', 'http://a', 'mailto:a@b', 'a.md', './x', '#y', '/abs']) expect(isSafeUrl(ok)).toBe(true);
    for (const bad of ['javascript:x', 'JAVASCRIPT:x', 'data:text/html,x', 'file:///etc', 'vbscript:x', 'ftp://x']) {
      expect(isSafeUrl(bad)).toBe(false);
    }
  });
  it('slugifies headings', () => {
    expect(slugify('Plan: Add Dark-Mode!')).toBe('plan-add-dark-mode');
    expect(slugify('***')).toBe('section');
  });
});
