import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProtocolError, RawClient, ResponseReader, type ResponseHead } from '../../bench/http1.js';
import { generate } from '../../bench/load.js';

interface Seen {
  head: ResponseHead;
  bodyBytes: number;
  body: string;
}

/** Feeds `wire` split at `cuts`, through one reused buffer as the sockets do, and returns what was read. */
function read(wire: string, cuts: number[], keep = true): Seen[] {
  const seen: Seen[] = [];
  let body = '';
  const reader = new ResponseReader(keep ? (b, s, e) => { body += b.toString('latin1', s, e); } : null, (head, bodyBytes) => {
    seen.push({ head, bodyBytes, body });
    body = '';
  });
  const bytes = Buffer.from(wire, 'latin1');
  const shared = Buffer.alloc(bytes.length + 16, 0x7a);
  reader.expect();
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    shared.fill(0x7a);
    bytes.copy(shared, 0, from, to);
    reader.feed(shared, 0, to - from);
    from = to;
    if (reader.idle && from < bytes.length) reader.expect();
  }
  reader.eof();
  return seen;
}

const CL = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"a":"bcd"}';
const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{"a"\r\nA\r\n:"bcdefgh"\r\n1\r\n}\r\n0\r\nX-T: 1\r\n\r\n';

describe('ResponseReader', () => {
  it('reads a content-length response however the reads split it', () => {
    for (let cut = 0; cut <= CL.length; cut++) {
      const [r] = read(CL, [cut]);
      expect(r?.head.status).toBe(200);
      expect(r?.head.headers['content-type']).toBe('application/json');
      expect(r?.bodyBytes).toBe(11);
      expect(r?.body).toBe('{"a":"bcd"}');
    }
  });

  it('reads chunked bodies, extensions and trailers across every split', () => {
    for (let a = 0; a <= CHUNKED.length; a++) {
      for (const b of [a, Math.min(CHUNKED.length, a + 3)]) {
        const [r] = read(CHUNKED, [a, b]);
        expect(r?.body).toBe('{"a":"bcdefgh"}');
        expect(r?.bodyBytes).toBe(15);
      }
    }
  });

  it('reads responses one after another and bodiless ones', () => {
    const notModified = 'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\nContent-Length: 99\r\n\r\n';
    const seen = read(CL + notModified + CHUNKED, [CL.length, CL.length + notModified.length]);
    expect(seen.map((s) => [s.head.status, s.bodyBytes])).toEqual([[200, 11], [304, 0], [200, 15]]);
    expect(seen[1]?.head.headers.etag).toBe('"x"');
  });

  it('fails loudly on truncation, stray bytes and missing framing', () => {
    expect(() => read(CL.slice(0, -1), [])).toThrow(/mid-body after 10 bytes of 11/);
    expect(() => read(CL + 'x', [])).toThrow(/1 bytes after the end/);
    expect(() => read(CL, [5]).length).not.toThrow(ProtocolError);
    expect(() => read('HTTP/1.1 200 OK\r\n\r\nbody', [])).toThrow(/without content-length or chunked/);
    expect(() => read(CHUNKED.replace('4;ext', 'g;ext'), [])).toThrow(/bad chunk size/);
    expect(() => read(CHUNKED.replace('{"a"\r\n', '{"a"xx'), [])).toThrow(/CRLF/);
    expect(() => read('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n', [])).toThrow(/unsupported/);
    expect(() => read('garbage\r\n\r\n', [])).toThrow(/bad status line/);
  });

  it('marks responses after which the server closes', () => {
    expect(read(CL.replace('OK\r\n', 'OK\r\nConnection: close\r\n'), [])[0]?.head.close).toBe(true);
    expect(read(CL.replace('HTTP/1.1', 'HTTP/1.0'), [])[0]?.head.close).toBe(true);
    expect(read(CL, [])[0]?.head.close).toBe(false);
  });
});

describe('RawClient and the load generator against node:http', () => {
  const body = Buffer.alloc(300_000, 'x');
  let server: http.Server;
  let port: number;
  const hosts: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      if (req.url === '/forbidden') {
        res.writeHead(403, { 'content-length': 9 }).end('Forbidden');
      } else if (req.url === '/chunked') {
        res.write(body.subarray(0, 1000));
        res.end(body.subarray(1000));
      } else if (req.url === '/close') {
        res.writeHead(200, { connection: 'close', 'content-length': body.length }).end(body);
      } else {
        res.writeHead(200, { 'content-length': body.length }).end(body);
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('times whole responses on one connection, keeps bodies only when asked', async () => {
    const client = new RawClient(port);
    for (const p of ['/', '/chunked', '/close', '/']) {
      const r = await client.get(p);
      expect([r.status, r.bodyBytes, r.body]).toEqual([200, body.length, null]);
      expect(r.ms).toBeGreaterThan(0);
    }
    const kept = await client.get('/chunked', { 'x-test': '1' }, { keepBody: true });
    expect(kept.body?.equals(body)).toBe(true);
    client.close();
    expect(hosts.at(-1)).toBe(`127.0.0.1:${port}`);
  });

  it('counts responses, bytes and refusals', async () => {
    const ok = await generate({ port, path: '/', connections: 2, durationS: 0.3, warmupS: 0.1, expectBytes: body.length });
    expect(ok.totalRequests).toBeGreaterThan(0);
    expect([ok.errors, ok.non2xx]).toEqual([0, 0]);
    // Bytes are counted as they arrive in the window, responses as they complete in it: a response under way
    // when the window opens counts whole with only its later bytes, at most one per connection.
    const windowBytes = ok.bytesPerSec * ok.durationS;
    expect(windowBytes).toBeGreaterThanOrEqual((ok.totalRequests - 2) * body.length);
    expect(windowBytes).toBeLessThanOrEqual((ok.totalRequests + 2) * (body.length + 1000));
    const wrong = await generate({ port, path: '/chunked', connections: 1, durationS: 0.2, warmupS: 0, expectBytes: 5 });
    expect(wrong.errors).toBe(wrong.totalRequests);
    const closing = await generate({ port, path: '/close', connections: 1, durationS: 0.2, warmupS: 0 });
    expect([closing.errors, closing.totalRequests > 0]).toEqual([0, true]);
    const refused = await generate({ port, path: '/forbidden', connections: 1, durationS: 0.2, warmupS: 0 });
    expect(refused.non2xx).toBe(refused.totalRequests);
    expect(refused.errors).toBe(refused.totalRequests);
    expect(refused.errorExamples[0]).toMatch(/403/);
  });
});
