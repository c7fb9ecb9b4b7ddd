// Hostile input over HTTP: URL and file-name decoding (property-based), traversal in every parameter,
// malformed and oversized bodies, broken HTTP framing, and 500 concurrent connections. Every answer is a
// known status with a plain-text error, never a 5xx, never a byte of a file that is not listed.
import http from 'node:http';
import net from 'node:net';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryEntry, PlanMetadata } from '../../src/domain/types.js';
import { TempHome } from '../helpers/home.js';
import { request, type RawResponse } from '../helpers/http.js';
import { harness, inParallel, type Harness } from './support.js';

const SECRET = 'TOP-SECRET-MARKER-7f3a';
let home: TempHome;
let server: Harness;
let plans: PlanMetadata[];
let entries: MemoryEntry[];
let planPath: string;

/** Odd but legal file names: each must be listed and fetchable through its percent-encoded name. */
const ODD_NAMES = [
  'a b.md', 'ü-ñ-日本語.md', '%41%2F.md', '%.md', '#hash.md', '?q=1.md', '+plus+.md', 'back\\slash.md', 'line\u2028sep.md',
  'x..md', 'trailing dot..md', 'emoji-🐧.md', 'semi;colon.md', 'quote\'"`.md', 'tab\t.md', 'nl\nname.md', '<script>alert(1)<\\script>.md',
  'CON.md', 'nul-like-%00.md', `${'long-slug-'.repeat(10)}snug-otter-agent-a7b1cd4effbcbdebe.md`, `${'ü'.repeat(120)}.md`,
];

beforeAll(async () => {
  home = await TempHome.create('pmv-adv-input-');
  planPath = await home.plan('target-plan.md', '# Target\nneedle\n');
  for (const [i, name] of ODD_NAMES.entries()) await home.plan(name, `# Odd ${i}\nbody of ${JSON.stringify(name)}\n`);
  // Things a traversal would love to reach: a file beside the claude dir, settings, and a listed-looking link.
  await writeFile(path.join(home.root, 'secret.md'), `# ${SECRET}\n`);
  await home.write('settings.json', JSON.stringify({ note: SECRET }));
  await home.write('projects/-home-u-p/memory/MEMORY.md', '# Memory\n- [Topic](topic.md)\n');
  await home.write('projects/-home-u-p/memory/topic.md', '---\nname: topic\n---\nTopic body\n');
  await home.write('projects/-home-u-p/memory/sub/nested.md', 'nested\n');
  await symlink(path.join(home.root, 'secret.md'), path.join(home.claude, 'projects', '-home-u-p', 'secret-link'));
  server = await harness({ claudeDir: home.claude, homeDir: home.root });
  plans = (await server.json<{ plans: PlanMetadata[] }>('/api/plans')).plans;
  entries = (await server.json<{ entries: MemoryEntry[] }>('/api/memory')).entries;
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

/** Asserts the invariants every answer shares, whatever was asked. */
function expectSafe(res: RawResponse, allowed: number[]): void {
  expect(allowed).toContain(res.status);
  expect(res.body).not.toContain(SECRET);
  expect(res.body).not.toContain('root:x:0:0');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  if (res.status >= 400) expect(res.headers['content-type']).toMatch(/^text\/plain/);
}

/** Whether a percent-encoded text decodes (well-formed escapes of UTF-8): what the service accepts. */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** Percent-encodes every byte of a string's UTF-8 form (or raw bytes): the widest legal request target. */
function percentBytes(bytes: Uint8Array): string {
  return [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

describe('file names and URL decoding', () => {
  it('lists every odd but legal plan name and serves it through its encoded name', async () => {
    const listed = new Set(plans.map((p) => p.filename));
    for (const name of ODD_NAMES) {
      expect(listed.has(name)).toBe(true);
      for (const encoded of [encodeURIComponent(name), percentBytes(Buffer.from(name))]) {
        const res = await request(server.port, { path: `/api/plans/${encoded}/content` });
        expectSafe(res, [200]);
        expect(JSON.parse(res.body)).toEqual({ content: `# Odd ${ODD_NAMES.indexOf(name)}\nbody of ${JSON.stringify(name)}\n` });
      }
    }
  });

  it('answers any percent-encoded string as a file name: its plan, or 404 "Plan not found"', async () => {
    const names = plans.map((p) => p.filename);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...names)), async (name) => {
        const res = await request(server.port, { path: `/api/plans/${encodeURIComponent(name)}/content` });
        // An empty segment is a different route (/api/plans//content): 404 from the router.
        expectSafe(res, names.includes(name) ? [200] : [404]);
        if (res.status === 404 && name !== '') expect(res.body).toBe('Plan not found');
      }),
      { numRuns: 300 },
    );
  });

  it('answers any byte sequence in a path or query parameter with 200 or 404 when it is UTF-8, 400 when not, never a 5xx', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 24 }),
      fc.constantFrom([0xc0, 0xae], [0xc0, 0xaf], [0xe0, 0x80, 0xae], [0xf0, 0x80, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0x00], [0x2e, 0x2e, 0x2f])
        .map((b) => Uint8Array.from(b)),
    );
    await fc.assert(
      fc.asyncProperty(bytes, fc.constantFrom('plan', 'id', 'q', 'mq'), async (raw, where) => {
        const p = percentBytes(raw);
        const pathname = where === 'plan' ? `/api/plans/${p}/content` : where === 'id' ? `/api/memory/content?id=${p}`
          : where === 'q' ? `/api/search?q=${p}` : `/api/memory/search?q=${p}`;
        const res = await request(server.port, { path: pathname });
        // Escapes that are not UTF-8 (overlong forms, surrogates, `%ff`) decode to nothing anyone wrote:
        // 400 in the path and in the query alike (security rule 7).
        const utf8 = decodes(p);
        expectSafe(res, utf8 ? [200, 404] : [400]);
        if (utf8 && (where === 'q' || where === 'mq')) expect(res.status).toBe(200);
      }),
      { numRuns: 400 },
    );
  });

  it('answers a malformed percent-escape in the query of any route with 400 in plain text, and still takes well-formed ones', async () => {
    const ROUTES = ['/', '/api/plans', '/api/plans/target-plan.md/content', '/api/search', '/api/memory', '/api/memory/content',
      '/api/memory/search', '/api/projects', '/api/openapi.json', '/api/events', '/assets/none.js', '/nope'];
    const BAD = ['%zz', '%', '%4', 'a%', '%g0', '%%41', '%ff', '%c0%ae', '%ed%a0%80', '%e0%a4%a', '%f0%80%80%af', '%u002e'];
    let tried = 0;
    for (const route of ROUTES) {
      for (const bad of BAD) {
        for (const query of [`q=${bad}`, `id=${bad}`, `${bad}=1`, `q=needle&x=${bad}`, `q=ok&q=${bad}`]) {
          const res = await request(server.port, { path: `${route}?${query}` });
          const label = `${route}?${query}`;
          expectSafe(res, [400]);
          expect([label, res.body]).toEqual([label, 'Bad request: malformed percent-escape in the query']);
          tried++;
        }
      }
    }
    // POST routes too: the query is refused before the body is looked at.
    for (const route of ['/api/open', '/api/refresh']) {
      const res = await request(server.port, { method: 'POST', path: `${route}?x=%zz`, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ filepath: planPath }) });
      expectSafe(res, [400]);
      expect(res.body).toBe('Bad request: malformed percent-escape in the query');
    }
    expect(tried).toBe(ROUTES.length * BAD.length * 5);
    expect(server.opened).toEqual([]);
    // Decoded once, `+` as a space, as before.
    expect(JSON.parse((await request(server.port, { path: '/api/search?q=%4E%45edle' })).body)).toEqual({ filenames: ['target-plan.md'] });
    expect(JSON.parse((await request(server.port, { path: '/api/search?q=%23+Target' })).body)).toEqual({ filenames: ['target-plan.md'] });
    expect(JSON.parse((await request(server.port, { path: '/api/search?q=%2545' })).body)).toEqual({ filenames: [] });
    expect(JSON.parse((await request(server.port, { path: `/api/memory/content?id=${encodeURIComponent(entries[0]!.id)}&x=%41` })).body)).toHaveProperty('content');
  });

  it('answers a malformed percent-escape in the path with 400 in plain text, after the same perimeter as every request', async () => {
    for (const bad of ['%zz', '%', 'a%4', '%ff', '%c0%ae', '%ed%a0%80']) {
      const res = await request(server.port, { path: `/api/plans/${bad}/content` });
      expectSafe(res, [400]);
      expect(res.body).toBe('Bad request: malformed URL');
      // Routing failed before the hooks ran: the Host allowlist and the cross-site refusal still answer first.
      const foreign = await request(server.port, { path: `/api/plans/${bad}/content`, host: 'evil.example' });
      expect([bad, foreign.status, foreign.body]).toEqual([bad, 403, 'Forbidden: host not allowed']);
      const crossSite = await request(server.port, { path: `/api/plans/${bad}/content`, headers: { 'Sec-Fetch-Site': 'cross-site' } });
      expect([bad, crossSite.status, crossSite.body]).toEqual([bad, 403, 'Forbidden: cross-origin request']);
      expect(crossSite.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('finds what search should find for any query text, and never errors', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 20 }), async (q) => {
        const res = await request(server.port, { path: `/api/search?q=${encodeURIComponent(q)}` });
        expectSafe(res, [200]);
        const { filenames } = JSON.parse(res.body) as { filenames: string[] };
        if (q === '') expect(filenames).toEqual([]);
        if ('needle'.includes(q.toLowerCase()) && q !== '') expect(filenames).toContain('target-plan.md');
        const mem = await request(server.port, { path: `/api/memory/search?q=${encodeURIComponent(q)}` });
        expectSafe(mem, [200]);
      }),
      { numRuns: 300 },
    );
  });
});

/** Everything a traversal might try, as request-target text (already URL-syntax). */
const TRAVERSALS = [
  '..', '../secret.md', '../../secret.md', '..%2fsecret.md', '..%2F..%2Fsecret.md', '%2e%2e%2fsecret.md', '%2e%2e/secret.md',
  '%252e%252e%252fsecret.md', '..%252fsecret.md', '..%5csecret.md', '..\\secret.md', '%5c..%5csecret.md', 'target-plan.md%00',
  'target-plan.md%00.txt', '%00', '%c0%ae%c0%ae%c0%afsecret.md', '%c0%2e%c0%2e%c0%2fsecret.md', '%e0%80%ae%e0%80%ae/secret.md',
  '%2fetc%2fpasswd', '/etc/passwd', '%2Fetc%2Fpasswd', 'C:%5cWindows%5cwin.ini', '%5c%5cserver%5cshare', 'file:%2f%2f%2fetc%2fpasswd',
  '.%2e/.%2e/secret.md', '....//secret.md', '..;/secret.md', '%u002e%u002e%u2215secret.md', '%e2%80%a4%e2%80%a4%2fsecret.md',
  '%ef%bc%8e%ef%bc%8e%ef%bc%8fsecret.md', 'plans%2f..%2f..%2fsecret.md', 'target-plan.md%2f..%2f..%2fsecret.md', '.', '%2e',
  '-home-u-p%2f..%2f..%2f..%2fsecret.md', '-home-u-p%2fsecret-link', '-home-u-p/../../../secret.md', '-home-u-p%2fMEMORY.md%2f..%2f..%2fsettings.json',
  '-home-u-p%2fsub%2f..%2f..%2f..%2f..%2fsecret.md', '-home-u-p%2f%2e%2e%2f%2e%2e%2fsettings.json', 'settings.json', '%2e%2e%2fsettings.json',
];

describe('traversal in every parameter', () => {
  it('never reaches an unlisted file through the plan file name', async () => {
    for (const t of TRAVERSALS) {
      const res = await request(server.port, { path: `/api/plans/${t}/content` });
      expectSafe(res, [400, 404]);
      if (!decodes(t)) expect([t, res.status]).toEqual([t, 400]);
    }
  });

  it('never reaches an unlisted file through the memory id', async () => {
    for (const t of TRAVERSALS) {
      const res = await request(server.port, { path: `/api/memory/content?id=${t}` });
      // A bad escape (`%u002e`, overlong `%c0%ae`) is a bad request, not an id to look up.
      expectSafe(res, decodes(t) ? [404] : [400]);
      if (res.status === 404) expect(res.body).toBe('Memory not found');
    }
    // The listed ids do work, so the refusals above are not a broken route.
    for (const entry of entries) {
      const res = await request(server.port, { path: `/api/memory/content?id=${encodeURIComponent(entry.id)}` });
      expectSafe(res, [200]);
    }
  });

  it('only ever returns listed names from the search parameters', async () => {
    const names = new Set(plans.map((p) => p.filename));
    const ids = new Set(entries.map((e) => e.id));
    for (const t of TRAVERSALS) {
      const res = await request(server.port, { path: `/api/search?q=${t}` });
      expectSafe(res, decodes(t) ? [200] : [400]);
      if (res.status === 200) for (const f of (JSON.parse(res.body) as { filenames: string[] }).filenames) expect(names.has(f)).toBe(true);
      const mem = await request(server.port, { path: `/api/memory/search?q=${t}` });
      expectSafe(mem, decodes(t) ? [200] : [400]);
      if (mem.status === 200) for (const id of (JSON.parse(mem.body) as { ids: string[] }).ids) expect(ids.has(id)).toBe(true);
    }
  });

  it('opens nothing but a listed file path, given exactly', async () => {
    const dir = path.dirname(planPath);
    const secret = path.join(home.root, 'secret.md');
    const attempts: unknown[] = [
      secret, '/etc/passwd', `${dir}/../../secret.md`, `${dir}/./target-plan.md`, `${dir}//target-plan.md`, `${planPath}/`,
      `${planPath}\0`, `${planPath}\0.txt`, planPath.toUpperCase(), `${dir}\\target-plan.md`, 'target-plan.md', 'plans/target-plan.md',
      `file://${planPath}`, ` ${planPath}`, `${planPath} `, `${planPath}\n`, path.join(home.claude, 'projects', '-home-u-p', 'secret-link'),
      path.join(home.claude, 'settings.json'), dir, home.claude, '', '.', '/', [planPath], { toString: planPath }, 1, null, true,
      planPath.normalize('NFD').replace('-', '\u2010'),
    ];
    for (const filepath of attempts) {
      const res = await request(server.port, {
        method: 'POST', path: '/api/open', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ filepath }),
      });
      expectSafe(res, [400]);
      expect(res.body).toBe('Invalid path');
    }
    expect(server.opened).toEqual([]);
  });
});

describe('request bodies', () => {
  const contentTypes = fc.oneof(
    fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x', 'application/octet-stream', 'application/json; charset=utf-16', ''),
    fc.string({ unit: 'grapheme-ascii', maxLength: 30 }).filter((s) => !/[\r\n]/.test(s)),
  );
  const bodies = fc.oneof(
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
    fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
    fc.record({ filepath: fc.oneof(fc.string(), fc.constant('PLAN')) }, { requiredKeys: [] }).map((v) => Buffer.from(JSON.stringify(v))),
    fc.constantFrom('{"__proto__":{"filepath":"PLAN"}}', '{"constructor":{"prototype":{"filepath":"PLAN"}}}', '{"filepath":"PLAN","filepath":"/etc/passwd"}',
      '{"filepath":"/etc/passwd","filepath":"PLAN"}', '{"filepath":"PLAN"', '\ufeff{"filepath":"PLAN"}', '{"filepath":"PLAN"}garbage', `${'['.repeat(7000)}${']'.repeat(7000)}`,
      '{"filepath":"\\ud800"}', '{"filepath":"PLAN\\u0000"}', '   ', 'null', '[]', '0', '""', '{"a":'.repeat(2000)).map((s) => Buffer.from(s)),
  );

  it('answer any body on either POST route with a 2xx/4xx and open only the exact listed path', async () => {
    let opensExpected = 0;
    await fc.assert(
      fc.asyncProperty(bodies, contentTypes, fc.constantFrom('/api/open', '/api/refresh'), async (rawBody, type, route) => {
        const body = Buffer.from(rawBody.toString('latin1').replaceAll('PLAN', planPath), 'latin1');
        const headers: Record<string, string> = type === '' ? {} : { 'Content-Type': type };
        const res = await request(server.port, { method: 'POST', path: route, headers, body });
        expectSafe(res, [200, 400, 413, 415]);
        if (route === '/api/open' && res.status === 200) {
          opensExpected++;
          expect(JSON.parse(body.toString('utf8'))).toMatchObject({ filepath: planPath });
        }
        if (route === '/api/open' && res.status !== 200) expect(res.body).toBe(res.status === 413 ? 'Payload Too Large' : 'Invalid path');
        expect(server.opened).toHaveLength(opensExpected);
      }),
      { numRuns: 500 },
    );
    expect(new Set(server.opened).size).toBeLessThanOrEqual(1);
    server.opened.length = 0;
  });

  it('takes a body of exactly 16 KiB and answers 16 KiB + 1 with 413, by length or chunked', async () => {
    const open = (body: string, headers: Record<string, string> = {}) =>
      request(server.port, { method: 'POST', path: '/api/open', headers: { 'Content-Type': 'application/json', ...headers }, body });
    const base = JSON.stringify({ filepath: planPath, pad: '' });
    const exact = JSON.stringify({ filepath: planPath, pad: 'x'.repeat(16 * 1024 - Buffer.byteLength(base)) });
    expect(Buffer.byteLength(exact)).toBe(16 * 1024);
    expect((await open(exact)).status).toBe(200);
    const over = JSON.stringify({ filepath: planPath, pad: 'x'.repeat(16 * 1024 - Buffer.byteLength(base) + 1) });
    const res = await open(over);
    expectSafe(res, [413]);
    expect(res.body).toBe('Payload Too Large');
    for (const size of [16 * 1024 + 1, 1024 * 1024, 8 * 1024 * 1024]) {
      const chunked = await rawExchange(
        `POST /api/open HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        size,
      );
      expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
    }
    server.opened.length = 0;
  });
});

/** Writes a head and optionally `bodyBytes` in 64 KiB chunks (chunked encoding), returns everything read. */
function rawExchange(head: string | Buffer, bodyBytes = 0): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let out = '';
    socket.on('data', (d: Buffer) => void (out += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(out));
    socket.write(head);
    let left = bodyBytes;
    const pump = (): void => {
      while (left > 0 && !socket.destroyed) {
        const n = Math.min(left, 65536);
        left -= n;
        if (!socket.write(`${n.toString(16)}\r\n${'x'.repeat(n)}\r\n`)) return void socket.once('drain', pump);
      }
      if (!socket.destroyed && bodyBytes > 0) socket.write('0\r\n\r\n');
    };
    if (bodyBytes > 0) pump();
    // The server closes every connection here after answering (errors) or we close after a quiet moment.
    setTimeout(() => socket.end(), 1500).unref();
  });
}

describe('broken HTTP framing', () => {
  const H = 'Host: 127.0.0.1\r\n';
  const CASES: [string, string | Buffer, number][] = [
    ['garbage request line', 'HELLO\r\n\r\n', 400],
    ['unknown HTTP version', `GET /api/plans HTTP/9.9\r\n${H}\r\n`, 400],
    ['NUL in a header value', `GET /api/plans HTTP/1.1\r\n${H}X-A: a\0b\r\n\r\n`, 400],
    ['obsolete line folding', `GET /api/plans HTTP/1.1\r\n${H}X-A: a\r\n b\r\n\r\n`, 400],
    ['Transfer-Encoding with Content-Length', `POST /api/refresh HTTP/1.1\r\n${H}Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
    ['bad chunk size', `POST /api/open HTTP/1.1\r\n${H}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`, 400],
    ['negative Content-Length', `POST /api/open HTTP/1.1\r\n${H}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`, 400],
    ['two Content-Lengths', `POST /api/open HTTP/1.1\r\n${H}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, 400],
    ['space before the colon', `GET /api/plans HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n`, 400],
    ['raw non-UTF-8 bytes in the path', Buffer.concat([Buffer.from('GET /api/plans/'), Buffer.from([0xc3, 0xff]), Buffer.from(`/content HTTP/1.1\r\n${H}\r\n`)]), 400],
    ['3000 headers', `GET /api/plans HTTP/1.1\r\n${H}${Array.from({ length: 3000 }, (_, i) => `X-${i}: y\r\n`).join('')}\r\n`, 431],
    ['a 100 KB URL', `GET /api/plans/${'x'.repeat(100_000)}/content HTTP/1.1\r\n${H}\r\n`, 431],
    ['Content-Length larger than the limit', `POST /api/open HTTP/1.1\r\n${H}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{}`, 413],
  ];

  it.each(CASES.map(([name, text, status]) => ({ name, text, status })))('$name → $status in plain text with the security headers', async ({ text, status }) => {
    const out = await rawExchange(text);
    const [head = '', body = ''] = out.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(head.toLowerCase()).toContain('content-type: text/plain');
    expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(head.toLowerCase()).not.toContain('access-control-');
    expect(body).not.toMatch(/^\s*\{/);
    // The server is still fine afterwards.
    expect((await request(server.port, { path: '/api/plans', headers: { Connection: 'close' } })).status).toBe(200);
  });
});

describe('connection load', () => {
  it('answers 500 concurrent connections, each with its own socket, all 200', async () => {
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const get = (i: number) => new Promise<number>((resolve, reject) => {
      const pathname = ['/api/plans', '/api/projects', '/api/memory', `/api/search?q=${i}`, '/'][i % 5]!;
      const req = http.get({ host: '127.0.0.1', port: server.port, path: pathname, agent, headers: { Host: `127.0.0.1:${server.port}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
    const statuses = await Promise.all(Array.from({ length: 500 }, (_, i) => get(i)));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    agent.destroy();
  });

  it('keeps serving while 500 idle connections and 50 event streams stay open', async () => {
    const idle = await inParallel(Array.from({ length: 500 }, (_, i) => i), 100, () => new Promise<net.Socket>((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1', () => resolve(socket));
      socket.on('error', () => undefined);
    }));
    const streams = await Promise.all(Array.from({ length: 50 }, () => new Promise<http.ClientRequest>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: server.port, path: '/api/events', agent: false, headers: { Host: `127.0.0.1:${server.port}` } }, (res) => {
        res.resume();
        resolve(req);
      });
      req.on('error', () => undefined);
    })));
    try {
      const res = await request(server.port, { path: '/api/plans', headers: { Connection: 'close' } });
      expect(res.status).toBe(200);
      const refresh = await request(server.port, { method: 'POST', path: '/api/refresh', headers: { Connection: 'close' } });
      expect(refresh.status).toBe(200);
    } finally {
      for (const socket of idle) socket.destroy();
      for (const req of streams) req.destroy();
    }
  });
});
