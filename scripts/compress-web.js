// Brotli and gzip copies of the built UI's text files, made once at build time at the strongest
// settings (too slow to do per request), beside each file as name.br and name.gz. The server picks
// one by the request's Accept-Encoding (src/http/routes/staticUi.ts). Files under 1 KiB, and copies
// that would not be smaller, are left out.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const TEXT = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt']);
const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile() && TEXT.has(path.extname(entry.name))) yield full;
  }
}

async function compressOne(file) {
  if ((await stat(file)).size < MIN_BYTES) return { raw: 0, br: 0, gz: 0 };
  const body = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  if (br.length < body.length) await writeFile(`${file}.br`, br);
  if (gz.length < body.length) await writeFile(`${file}.gz`, gz);
  return { raw: body.length, br: Math.min(br.length, body.length), gz: Math.min(gz.length, body.length) };
}

/** Compresses every text file of `dir`; returns the totals. */
export async function compressWeb(dir) {
  const list = [];
  for await (const file of files(dir)) list.push(file);
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  // A few at a time: zlib's work runs on the libuv thread pool.
  for (let i = 0; i < list.length; i += 4) {
    for (const r of await Promise.all(list.slice(i, i + 4).map(compressOne))) {
      if (!r.raw) continue;
      totals.files += 1;
      totals.raw += r.raw;
      totals.br += r.br;
      totals.gz += r.gz;
    }
  }
  return totals;
}
