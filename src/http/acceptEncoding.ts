// Content negotiation of the response encoding (RFC 9110 12.5.3), shared by the static UI and the
// cached JSON answers: of the encodings we have, the one the client weighs highest (q above 0).

export type Encoding = 'br' | 'gzip';

/** `available` in our order of preference; null: send the body as it is. */
export function chooseEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | null {
  if (!header || available.length === 0) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (m) weight = Number(m[1]);
    }
    q.set(coding, Number.isFinite(weight) ? weight : 0);
  }
  const star = q.get('*');
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of available) {
    const weight = q.get(encoding) ?? (encoding === 'gzip' ? q.get('x-gzip') : undefined) ?? star ?? 0;
    // The client's weights first; between equal ones, our order (the smaller body first).
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Whether an If-None-Match header names this ETag (a list, weak tags and `*` included). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
