// Response encodings: the UI's precompressed files (brotli, gzip, or as built, by Accept-Encoding, each
// with its own ETag and Vary) and the cached JSON lists (/api/plans, /api/memory).
import http from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding, etagMatches } from '../../src/http/acceptEncoding.js';
import { encodeCwd, TempHome } from '../helpers/home.js';
import { startServer, type Running } from '../helpers/http.js';

interface BinaryResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(port: number, pathname: string, headers: Record<string, string> = {}): Promise<BinaryResponse> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: pathname, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The body as it was before the response's Content-Encoding. */
function decoded(res: BinaryResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(res.body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(res.body).toString('utf8');
  expect(encoding).toBeUndefined();
  return res.body.toString('utf8');
}

const SCRIPT = `console.log(${JSON.stringify('the app '.repeat(800))});\n`;
const ASSET = '/assets/app-1a2b3c.js';

let home: TempHome;
let server: Running;

beforeAll(async () => {
  home = await TempHome.create();
  await home.plan('a-plan.md', '# Plan: A\n');
  const memory = path.join('projects', encodeCwd(await home.repo('webapp')), 'memory');
  await home.write(path.join(memory, 'MEMORY.md'), Array.from({ length: 40 }, (_, i) => `- [Topic ${i}](topic-${i}.md) — a hook`).join('\n'));
  for (let i = 0; i < 40; i += 1) await home.write(path.join(memory, `topic-${i}.md`), `---\nname: topic-${i}\ndescription: Topic ${i}\n---\nBody.\n`);

  // A built UI as scripts/compress-web.js leaves it: copies beside the files, a small file without.
  const web = path.join(home.root, 'web');
  await mkdir(path.join(web, 'assets'), { recursive: true });
  await writeFile(path.join(web, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(path.join(web, ASSET), SCRIPT);
  await writeFile(path.join(web, `${ASSET}.br`), zlib.brotliCompressSync(SCRIPT));
  await writeFile(path.join(web, `${ASSET}.gz`), zlib.gzipSync(SCRIPT));
  await writeFile(path.join(web, 'assets', 'tiny.js'), 'export {};\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, webDir: web });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

describe('chooseEncoding', () => {
  it('takes what the client weighs highest, then our order, never a q of 0', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', ['br', 'gzip'])).toBe('br');
    expect(chooseEncoding('gzip', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('x-gzip', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('gzip;q=0', ['gzip'])).toBeNull();
    expect(chooseEncoding('br;q=0.2, gzip;q=0.9', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('*', ['br', 'gzip'])).toBe('br');
    expect(chooseEncoding('*;q=0, identity', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('identity', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding(undefined, ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('br', [])).toBeNull();
  });

  it('matches ETags in lists, weak or not', () => {
    expect(etagMatches('"a", "b"', '"b"')).toBe(true);
    expect(etagMatches('W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"a"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});

describe('the UI files', () => {
  it('sends brotli, gzip or the file as built, by Accept-Encoding, with Vary and a tag per encoding', async () => {
    const br = await get(server.port, ASSET, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    const gz = await get(server.port, ASSET, { 'accept-encoding': 'gzip' });
    const plain = await get(server.port, ASSET);
    const refused = await get(server.port, ASSET, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect([br.headers['content-encoding'], gz.headers['content-encoding'], plain.headers['content-encoding'], refused.headers['content-encoding']])
      .toEqual(['br', 'gzip', undefined, undefined]);
    for (const res of [br, gz, plain, refused]) {
      expect(res.status).toBe(200);
      expect(decoded(res)).toBe(SCRIPT);
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
    }
    expect(br.body.length).toBeLessThan(SCRIPT.length / 10);
    const tags = [br, gz, plain].map((r) => r.headers.etag);
    expect(new Set(tags).size).toBe(3);
    expect(refused.headers.etag).toBe(plain.headers.etag);
  });

  it('answers 304 only to the tag of the representation it would send', async () => {
    const br = await get(server.port, ASSET, { 'accept-encoding': 'br' });
    const gz = await get(server.port, ASSET, { 'accept-encoding': 'gzip' });
    const again = await get(server.port, ASSET, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers.vary).toBe('accept-encoding');
    // A client holding the gzip copy that now takes brotli gets the brotli bytes, not a 304.
    const switched = await get(server.port, ASSET, { 'accept-encoding': 'br', 'if-none-match': gz.headers.etag! });
    expect(switched.status).toBe(200);
    expect(switched.headers['content-encoding']).toBe('br');
    expect(decoded(switched)).toBe(SCRIPT);
  });

  it('does not serve the copies as files of their own, and sends a file without copies as it is', async () => {
    expect((await get(server.port, `${ASSET}.br`)).status).toBe(404);
    expect((await get(server.port, `${ASSET}.gz`)).status).toBe(404);
    const tiny = await get(server.port, '/assets/tiny.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.status).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.headers.vary).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};\n');
  });
});

describe('the cached lists', () => {
  it('gzips /api/memory like /api/plans, with an ETag and 304', async () => {
    const plain = await get(server.port, '/api/memory');
    const gz = await get(server.port, '/api/memory', { 'accept-encoding': 'gzip, br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('accept-encoding');
    expect(JSON.parse(decoded(gz))).toEqual(JSON.parse(decoded(plain)));
    expect((JSON.parse(decoded(gz)) as { entries: unknown[] }).entries.length).toBe(41);
    expect(gz.headers.etag).toMatch(/^"/);
    const again = await get(server.port, '/api/memory', { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag! });
    expect(again.status).toBe(304);
  });

  it('does not gzip for a client that refuses it with q=0', async () => {
    // A list long enough to be worth gzipping (over 1 KiB).
    for (let i = 0; i < 12; i += 1) await home.plan(`plan-with-a-long-name-${i}.md`, `# Plan: number ${i}\n`);
    await server.viewer.refresh();
    const gz = await get(server.port, '/api/plans', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const res = await get(server.port, '/api/plans', { 'accept-encoding': 'gzip;q=0, identity' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(decoded(res)) as { plans: unknown[] }).plans.length).toBe(13);
  });
});
