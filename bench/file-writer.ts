// The file writer session logs go through: synchronous, staged, counting the bytes it wrote.

import fs from 'node:fs';

// Buffered synchronous file writer: copies small pieces into a staging buffer, writes big ones directly.

export class FileWriter {
  private readonly fd: number;
  private readonly stage: Buffer;
  private used = 0;
  written = 0;

  constructor(file: string, stage: Buffer, flags = 'w') {
    this.fd = fs.openSync(file, flags);
    this.stage = stage;
  }

  write(piece: Buffer | string): void {
    const buf = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
    this.written += buf.length;
    if (buf.length > this.stage.length - this.used) {
      this.flush();
      if (buf.length > this.stage.length / 4) {
        writeAll(this.fd, buf);
        return;
      }
    }
    buf.copy(this.stage, this.used);
    this.used += buf.length;
  }

  flush(): void {
    if (this.used > 0) writeAll(this.fd, this.stage.subarray(0, this.used));
    this.used = 0;
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}
