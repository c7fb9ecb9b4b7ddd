import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempHome, eventually } from '../helpers/home.js';
import { startServer, type Running } from '../helpers/http.js';

let home: TempHome;
let server: Running;

beforeAll(async () => {
  home = await TempHome.create();
  await home.plan('first.md', '# First\n');
  server = await startServer({ claudeDir: home.claude, homeDir: home.root, watch: true });
});

afterAll(async () => {
  await server?.close();
  await home?.cleanup();
});

function subscribe(port: number): Promise<{ res: http.IncomingMessage; text: () => string; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { Host: `127.0.0.1:${port}` } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      resolve({ res, text: () => text, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

describe('GET /api/events', () => {
  it('streams ready, then plan and memory changes, with the security headers', async () => {
    const stream = await subscribe(server.port);
    try {
      expect(stream.res.statusCode).toBe(200);
      expect(stream.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.res.headers['x-content-type-options']).toBe('nosniff');
      expect(stream.res.headers['access-control-allow-origin']).toBeUndefined();
      expect(await eventually(() => stream.text().includes('event: ready'))).toBe(true);
      await home.plan('second.md', '# Second\n');
      expect(await eventually(() => /event: plans\ndata: \{"changed":\["second\.md"\],"removed":\[\]\}/.test(stream.text()))).toBe(true);
      await home.write('projects/-tmp-x/memory/MEMORY.md', '# Memory\n');
      expect(await eventually(() => stream.text().includes('event: memory\ndata: {}'))).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('refuses a foreign Host like every other route', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve) => {
      http.get({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { Host: 'evil.example' } }, resolve);
    });
    expect(res.statusCode).toBe(403);
    res.destroy();
  });
});

describe('POST /api/refresh under concurrency', () => {
  it('lets concurrent refreshes share one rescan', async () => {
    const calls: Promise<{ before: number; after: number }>[] = [];
    for (let i = 0; i < 5; i++) calls.push(server.viewer.refresh());
    expect(new Set(calls).size).toBe(1);
    const result = await calls[0]!;
    expect(result.after).toBe(server.viewer.plans.count);
    const again = server.viewer.refresh();
    expect(again).not.toBe(calls[0]);
    await again;
  });
});
