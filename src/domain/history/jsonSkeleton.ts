// A long JSON line without its long strings. The history index wants a tool call's name, file and time,
// never the text it writes; a multi-MB Write line would otherwise be decoded and parsed whole (one long
// pause of the event loop per line) only to be dropped. Strings are found with the buffer's own indexOf,
// so the cost is about a scan of the quotes, not a parse.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * `bytes` (one JSON text) with every string literal longer than `maxStringBytes` (as written, escapes
 * included) emptied to `""`; anything else is kept byte for byte. Unbalanced quotes return `bytes` as
 * they are (the parser then says what is wrong).
 */
export function withoutLongStrings(bytes: Buffer, maxStringBytes: number): Buffer {
  const kept: Buffer[] = [];
  let copiedTo = 0;
  let at = 0;
  for (;;) {
    const open = bytes.indexOf(QUOTE, at);
    if (open === -1) break;
    const close = closingQuote(bytes, open + 1);
    if (close === -1) return bytes;
    if (close - open - 1 > maxStringBytes) {
      kept.push(bytes.subarray(copiedTo, open + 1));
      copiedTo = close;
    }
    at = close + 1;
  }
  if (kept.length === 0) return bytes;
  kept.push(bytes.subarray(copiedTo));
  return Buffer.concat(kept);
}

/** The quote that ends the string whose text starts at `from`: the next one not escaped, or -1. */
function closingQuote(bytes: Buffer, from: number): number {
  for (let at = from; ;) {
    const quote = bytes.indexOf(QUOTE, at);
    if (quote === -1) return -1;
    let slashes = 0;
    while (quote - slashes - 1 >= from && bytes[quote - slashes - 1] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}
