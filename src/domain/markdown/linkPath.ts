// What a markdown link's destination names, as a path relative to the linking file. Shared with the UI
// (through links.ts and the memory link resolver): keep it free of Node APIs.

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]{0,31}:/;
/** Longest path a file system opens (Linux PATH_MAX), in UTF-8 bytes; anything longer names no file. */
const MAX_PATH_BYTES = 4096;

/**
 * A link destination as a relative path: without `#anchor` or `?query`, percent-decoded; null for
 * external URLs (any scheme), anchors and absolute or home paths.
 */
export function linkPath(dest: string): string | null {
  const trimmed = dest.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('/') || trimmed.startsWith('\\') ||
      trimmed.startsWith('~') || SCHEME.test(trimmed)) {
    return null;
  }
  let cut = trimmed.length;
  for (const mark of ['#', '?']) {
    const at = trimmed.indexOf(mark);
    if (at !== -1 && at < cut) cut = at;
  }
  const bare = trimmed.slice(0, cut);
  // Every character is at least a third of a byte once decoded (`%XX` is one byte), escaped or not:
  // longer than this, no path, and decoding it is only cost.
  if (bare === '' || bare.length > 3 * MAX_PATH_BYTES) return null;
  const decoded = percentDecode(bare);
  // Decoding can reveal an absolute path or a NUL that no file name contains.
  if (decoded.startsWith('/') || decoded.includes('\0') || utf8Bytes(decoded) > MAX_PATH_BYTES) return null;
  return decoded;
}

/**
 * Decodes each `%XX` sequence that is valid UTF-8 and keeps the rest as written: a stray `%` is a
 * literal character in a file name. Escape by escape, so a destination reads the same whether or not a
 * renderer re-encoded its stray `%` as `%25` first (markdown-it does). Validated by hand rather than by
 * catching decodeURIComponent's errors: a line of thousands of bad escapes must not cost a throw each.
 */
function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    // Every escape valid: the common case, in one call.
    return decodeURIComponent(text);
  } catch {
    // Some are not: decode run by run below.
  }
  const parts: string[] = [];
  let done = 0;
  for (let at = text.indexOf('%'); at !== -1; ) {
    let end = at;
    while (text.charCodeAt(end) === 0x25 && isHex(text.charCodeAt(end + 1)) && isHex(text.charCodeAt(end + 2))) end += 3;
    if (end === at) {
      at = text.indexOf('%', at + 1);
      continue;
    }
    parts.push(text.slice(done, at), decodeRun(text.slice(at, end)));
    done = end;
    at = text.indexOf('%', end);
  }
  parts.push(text.slice(done));
  return parts.join('');
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

const utf8 = new TextDecoder();

/** A run of `%XX` escapes. */
function decodeRun(run: string): string {
  if (run.length === 3) {
    // One byte: ASCII decodes, anything else is a lone lead or continuation byte and stays.
    const byte = (hexValue(run.charCodeAt(1)) << 4) | hexValue(run.charCodeAt(2));
    return byte < 0x80 ? String.fromCharCode(byte) : run;
  }
  const bytes = new Uint8Array(run.length / 3);
  for (let k = 0; k < bytes.length; k++) bytes[k] = (hexValue(run.charCodeAt(3 * k + 1)) << 4) | hexValue(run.charCodeAt(3 * k + 2));
  const parts: string[] = [];
  // Well-formed stretches are decoded whole; each byte of an ill-formed one stays as its escape.
  let from = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = utf8Length(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    if (from < i) parts.push(utf8.decode(bytes.subarray(from, i)));
    parts.push(run.slice(i * 3, i * 3 + 3));
    from = ++i;
  }
  if (from < bytes.length) parts.push(utf8.decode(bytes.subarray(from)));
  return parts.join('');
}

function hexValue(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

/** Bytes in the well-formed UTF-8 sequence at `i` (RFC 3629: no overlongs, surrogates or > U+10FFFF), or 0. */
function utf8Length(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  if (b < 0xc2 || b > 0xf4) return 0;
  const n = b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
  if (i + n > bytes.length) return 0;
  // The second byte's range depends on the first; the others are plain continuation bytes.
  const second = bytes[i + 1]!;
  const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
  const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
  if (second < lo || second > hi) return 0;
  for (let k = 2; k < n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return n;
}

function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Two bytes below U+0800, three above; a surrogate pair (four bytes) is two code units of two.
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
