// A minimal HTTP/1.1 response reader for the benchmark's clients. node:http's client parses every 64 KB
// chunk through llhttp and a stream, allocates a Buffer per read and (in our old Client) concatenated the
// body: on this 2-core VM that costs as much as the server's own work for a 1 MB body. Here each socket
// reads into one reused buffer (`onread`), only the head is parsed, and body bytes are counted, not copied.
//
// Framing is exact: Content-Length or chunked; anything else (a body delimited by close, pipelined or
// stray bytes, a truncated body) is an error, never a silently wrong count.

import net from 'node:net';

export interface ResponseHead {
  status: number;
  /** Lowercase names; a repeated header keeps its last value (we only read framing and ETag). */
  headers: Record<string, string>;
  contentLength: number | null;
  chunked: boolean;
  /** The server will close the connection after this response. */
  close: boolean;
  headBytes: number;
}

export class ProtocolError extends Error {}

const MAX_HEAD = 64 * 1024;
const CRLFCRLF = Buffer.from('\r\n\r\n');

const HEAD = 0;
const BODY = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_CRLF = 4;
const TRAILER = 5;
const DONE = 6;

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** The head of one response, from its bytes up to (not including) the blank line. */
export function parseHead(text: string, headBytes: number): ResponseHead {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (!m) throw new ProtocolError(`bad status line: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
  const headers: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new ProtocolError(`bad header line: ${JSON.stringify(line.slice(0, 80))}`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(m[2]);
  const te = headers['transfer-encoding']?.toLowerCase();
  const chunked = te !== undefined && te.split(',').map((s) => s.trim()).pop() === 'chunked';
  if (te !== undefined && !chunked) throw new ProtocolError(`unsupported transfer-encoding: ${te}`);
  const cl = headers['content-length'];
  let contentLength: number | null = null;
  if (cl !== undefined) {
    if (!/^\d+$/.test(cl)) throw new ProtocolError(`bad content-length: ${cl}`);
    contentLength = Number(cl);
  }
  if (chunked && contentLength !== null) throw new ProtocolError('both content-length and chunked');
  const conn = headers.connection?.toLowerCase() ?? '';
  const close = m[1] === '0' ? !conn.includes('keep-alive') : conn.includes('close');
  return { status, headers, contentLength, chunked, close, headBytes };
}

/**
 * Incremental reader of responses to GETs sent one at a time on a connection. `feed` may be handed the
 * socket's reused buffer: nothing is kept from it except the (copied) head when the head spans reads.
 */
export class ResponseReader {
  private state = DONE;
  private pending: Buffer | null = null;
  private remaining = 0;
  private sizeDigits = 0;
  private inExtension = false;
  private lineLength = 0;
  private crlfSeen = 0;
  head: ResponseHead | null = null;
  bodyBytes = 0;

  constructor(
    private readonly onBody: ((buf: Buffer, start: number, end: number) => void) | null,
    private readonly onEnd: (head: ResponseHead, bodyBytes: number) => void,
  ) {}

  /** A request was sent: the next bytes start a response. */
  expect(): void {
    if (this.state !== DONE) throw new ProtocolError('a request was sent before the previous response ended');
    this.state = HEAD;
    this.pending = null;
    this.head = null;
    this.bodyBytes = 0;
  }

  get idle(): boolean {
    return this.state === DONE;
  }

  /** The connection ended; an error unless we were between responses. */
  eof(): void {
    if (this.state !== DONE) {
      throw new ProtocolError(this.state === HEAD ? 'connection closed before a response'
        : `connection closed mid-body after ${this.bodyBytes} bytes` +
          (this.head?.contentLength != null ? ` of ${this.head.contentLength}` : ''));
    }
  }

  /** Hands up to `remaining` body bytes from buf[i, end) to body(); returns where they end. */
  private takeBody(buf: Buffer, i: number, end: number): number {
    const n = Math.min(this.remaining, end - i);
    this.body(buf, i, i + n);
    this.remaining -= n;
    return i + n;
  }

  feed(buf: Buffer, start: number, end: number): void {
    let i = start;
    while (i < end) {
      switch (this.state) {
        case DONE:
          throw new ProtocolError(`${end - i} bytes after the end of a response (no request pending)`);
        case HEAD:
          i = this.readHead(buf, i, end);
          break;
        case BODY:
          i = this.takeBody(buf, i, end);
          if (this.remaining === 0) this.finish();
          break;
        case CHUNK_SIZE:
          i = this.readChunkSize(buf, i, end);
          break;
        case CHUNK_DATA: {
          i = this.takeBody(buf, i, end);
          if (this.remaining === 0) {
            this.state = CHUNK_CRLF;
            this.crlfSeen = 0;
          }
          break;
        }
        case CHUNK_CRLF: {
          const want = this.crlfSeen === 0 ? 13 : 10;
          if (buf[i] !== want) throw new ProtocolError('chunk data not followed by CRLF');
          i++;
          if (++this.crlfSeen === 2) this.startChunkSize();
          break;
        }
        case TRAILER:
          i = this.readTrailer(buf, i, end);
          break;
      }
    }
  }

  private body(buf: Buffer, start: number, end: number): void {
    this.bodyBytes += end - start;
    if (this.onBody && end > start) this.onBody(buf, start, end);
  }

  private readHead(buf: Buffer, start: number, end: number): number {
    // Common case: the whole head is in this read; only a head split across reads is copied.
    const prior = this.pending?.length ?? 0;
    let src = buf.subarray(0, end);
    let from = start;
    let to = end;
    if (this.pending) {
      src = Buffer.concat([this.pending, buf.subarray(start, Math.min(end, start + MAX_HEAD))]);
      from = 0;
      to = src.length;
    }
    const idx = src.indexOf(CRLFCRLF, Math.max(from, from + prior - 3));
    if (idx < 0 || idx >= to) {
      if (to - from >= MAX_HEAD) throw new ProtocolError(`no end of head within ${MAX_HEAD} bytes`);
      this.pending = Buffer.from(src.subarray(from, to));
      return end;
    }
    const headBytes = idx + 4 - from;
    const head = parseHead(src.toString('latin1', from, idx), headBytes);
    this.pending = null;
    this.head = head;
    const consumed = start + headBytes - prior;
    if (head.status < 200) throw new ProtocolError(`unexpected ${head.status} interim response`);
    if (head.status === 204 || head.status === 304) this.finish();
    else if (head.chunked) this.startChunkSize();
    else if (head.contentLength !== null) {
      this.remaining = head.contentLength;
      this.state = BODY;
      if (this.remaining === 0) this.finish();
    } else {
      throw new ProtocolError(`status ${head.status} response without content-length or chunked framing`);
    }
    return consumed;
  }

  private startChunkSize(): void {
    this.state = CHUNK_SIZE;
    this.remaining = 0;
    this.sizeDigits = 0;
    this.inExtension = false;
  }

  private readChunkSize(buf: Buffer, start: number, end: number): number {
    for (let i = start; i < end; i++) {
      const c = buf[i] as number;
      if (c === 10) {
        if (this.sizeDigits === 0) throw new ProtocolError('empty chunk size');
        if (this.remaining === 0) {
          this.state = TRAILER;
          this.lineLength = 0;
        } else {
          this.state = CHUNK_DATA;
        }
        return i + 1;
      }
      if (this.inExtension || c === 13) continue;
      const v = hexValue(c);
      if (v >= 0) {
        if (++this.sizeDigits > 12) throw new ProtocolError('chunk size too large');
        this.remaining = this.remaining * 16 + v;
      } else if (c === 59 || c === 32 || c === 9) {
        this.inExtension = true;
      } else {
        throw new ProtocolError(`bad chunk size byte 0x${c.toString(16)}`);
      }
    }
    return end;
  }

  private readTrailer(buf: Buffer, start: number, end: number): number {
    for (let i = start; i < end; i++) {
      const c = buf[i] as number;
      if (c === 10) {
        if (this.lineLength === 0) {
          this.finish();
          return i + 1;
        }
        this.lineLength = 0;
      } else if (c !== 13) {
        this.lineLength++;
      }
    }
    return end;
  }

  private finish(): void {
    const head = this.head as ResponseHead;
    if (head.contentLength !== null && !head.chunked && this.bodyBytes !== head.contentLength &&
      head.status !== 304 && head.status !== 204) {
      throw new ProtocolError(`body ${this.bodyBytes} bytes, content-length ${head.contentLength}`);
    }
    this.state = DONE;
    this.onEnd(head, this.bodyBytes);
  }
}

/** The bytes of `GET path` with a Host the viewer accepts (it answers any other Host with 403). */
export function requestBytes(port: number, urlPath: string, headers: Record<string, string> = {}): Buffer {
  let text = `GET ${urlPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`;
  for (const [k, v] of Object.entries(headers)) {
    if (/[\r\n]/.test(k + v)) throw new Error(`header with a line break: ${k}`);
    text += `${k}: ${v}\r\n`;
  }
  return Buffer.from(text + '\r\n', 'latin1');
}

/** 64 KB: as fast as 256 KB here; 1 MB cut single-connection throughput to a third (it no longer stays in cache). */
export const READ_BUFFER = 64 * 1024;

export interface RawResult {
  status: number;
  headers: Record<string, string>;
  bodyBytes: number;
  /** Only when asked for (`keepBody`): copying 1 MB is part of what we do not want to time. */
  body: Buffer | null;
  /** From writing the request to reading the last body byte. */
  ms: number;
}

/**
 * Sequential keep-alive client on one raw socket: times a request from its write to its last body byte,
 * with no per-read allocation, no stream and no copy unless `keepBody` (then one copy per read).
 */
export class RawClient {
  private socket: net.Socket | null = null;
  private reader: ResponseReader | null = null;
  private readonly buffer = Buffer.allocUnsafe(READ_BUFFER);
  private chunks: Buffer[] | null = null;
  private t0 = 0;
  private waiter: { resolve: (r: RawResult) => void; reject: (e: Error) => void } | null = null;

  constructor(readonly port: number) {}

  private connect(): Promise<{ socket: net.Socket; reader: ResponseReader }> {
    const reader = new ResponseReader(
      (buf, start, end) => { this.chunks?.push(Buffer.from(buf.subarray(start, end))); },
      (head, bodyBytes) => this.done(head, bodyBytes),
    );
    return new Promise((resolve, reject) => {
      let connected = false;
      const socket = net.connect({
        host: '127.0.0.1', port: this.port, noDelay: true,
        onread: {
          buffer: this.buffer,
          callback: (n: number, buf: Uint8Array): boolean => {
            try {
              reader.feed(buf as Buffer, 0, n);
            } catch (err) {
              this.fail(err as Error);
            }
            return true;
          },
        },
      });
      socket.once('connect', () => {
        connected = true;
        this.socket = socket;
        this.reader = reader;
        resolve({ socket, reader });
      });
      socket.on('error', (err) => (connected ? this.fail(err) : reject(err)));
      socket.on('close', () => {
        if (this.socket !== socket) return;
        try {
          reader.eof();
          this.dropSocket();
        } catch (err) {
          this.fail(err as Error);
        }
      });
    });
  }

  private done(head: ResponseHead, bodyBytes: number): void {
    const ms = performance.now() - this.t0;
    const w = this.waiter;
    this.waiter = null;
    const body = this.chunks ? Buffer.concat(this.chunks) : null;
    this.chunks = null;
    if (head.close) this.dropSocket();
    w?.resolve({ status: head.status, headers: head.headers, bodyBytes, body, ms });
  }

  private fail(err: Error): void {
    this.dropSocket();
    const w = this.waiter;
    this.waiter = null;
    w?.reject(err);
  }

  /** Forgets the connection (and its reader's state): the next request opens a new one. */
  private dropSocket(): void {
    const s = this.socket;
    this.socket = null;
    this.reader = null;
    s?.destroy();
  }

  async get(urlPath: string, headers: Record<string, string> = {},
    opts: { keepBody?: boolean; timeoutMs?: number } = {}): Promise<RawResult> {
    const req = requestBytes(this.port, urlPath, headers);
    const { socket, reader } = this.socket && this.reader ? { socket: this.socket, reader: this.reader } : await this.connect();
    return new Promise<RawResult>((resolve, reject) => {
      const timeoutMs = opts.timeoutMs ?? 30_000;
      const timer = setTimeout(() => this.fail(new Error(`timeout after ${timeoutMs} ms: GET ${urlPath}`)), timeoutMs);
      this.waiter = {
        resolve: (r) => { clearTimeout(timer); resolve(r); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      };
      this.chunks = opts.keepBody ? [] : null;
      reader.expect();
      this.t0 = performance.now();
      socket.write(req);
    });
  }

  close(): void {
    this.dropSocket();
  }
}
