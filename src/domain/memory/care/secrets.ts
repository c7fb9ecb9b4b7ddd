// Text in a memory file that looks like a credential: private key blocks, the common API key shapes,
// and `password:` lines. Memory folders are sometimes committed to repositories, and a session may have
// saved what it was shown. Findings name the kind and the line, never the text (the UI masks it).
//
// Cheap and bounded (security rule 13): one linear pass of a regex of plain alternatives over the text
// finds candidate lines; only those lines (cut to MAX_LINE_CHARS) are matched against the shapes, whose
// quantifiers are single character classes.

export interface SecretHit {
  /** 1-based line of the file. */
  line: number;
  /** What it looks like, for people: "GitHub token", "private key block", ... */
  kind: string;
}

const MAX_LINE_CHARS = 4096;
/** A file full of key-like lines says so soon enough; the rest is not listed. */
const MAX_HITS = 20;

// Literal starts of every shape below: a text without any of them has no candidate line.
const CANDIDATE = /-----BEGIN|AKIA|ASIA|gh[pousr]_|github_pat_|sk-|xox[abposr]-|AIza|[rs]k_live_|[rs]k_test_|eyJ|passw|passwd|pwd|secret|api[_-]?key|token/gi;

const SHAPES: { kind: string; re: RegExp }[] = [
  { kind: 'private key block', re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'AWS access key id', re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: 'GitHub token', re: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/ },
  { kind: 'GitHub token', re: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/ },
  { kind: 'Anthropic API key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  { kind: 'OpenAI API key', re: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/ },
  { kind: 'Slack token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'Stripe key', re: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/ },
  { kind: 'JSON Web Token', re: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
];

// `password: hunter2`, `api_key = "abc123…"`, `DB_PASSWORD=…`: a key named like a secret, then a value
// that is one word (prose like "password: ask the user" is not a value).
const ASSIGNMENT = /(?:^|[^A-Za-z0-9])((?:[A-Za-z0-9]{1,40}[_-])?(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret))["']?[ \t]{0,8}[:=][ \t]{0,8}(["']?)([^\s"'`]{4,200})\2[ \t]*[,;]?[ \t]*$/i;
// Values that stand for a secret rather than being one.
const PLACEHOLDER = /^(?:<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\*+|x+|\.\.\.|…|changeme|password|secret|redacted|none|null|true|false|example|your[_-].*|env:.*|process\.env\..*)$/i;

/** The secret-looking lines of a text, in order, at most MAX_HITS. */
export function findSecrets(text: string): SecretHit[] {
  CANDIDATE.lastIndex = 0;
  if (!CANDIDATE.test(text)) return [];
  const hits: SecretHit[] = [];
  let lineNo = 0;
  let start = 0;
  // Walked line by line: the candidate test above is what keeps clean files cheap.
  while (start <= text.length && hits.length < MAX_HITS) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lineNo++;
    const line = text.slice(start, Math.min(end, start + MAX_LINE_CHARS));
    CANDIDATE.lastIndex = 0;
    if (CANDIDATE.test(line)) {
      const kind = secretKind(line.replace(/\r$/, ''));
      if (kind !== null) hits.push({ line: lineNo, kind });
    }
    if (end === text.length) break;
    start = end + 1;
  }
  return hits;
}

function secretKind(line: string): string | null {
  for (const shape of SHAPES) if (shape.re.test(line)) return shape.kind;
  const assignment = ASSIGNMENT.exec(line);
  if (assignment === null || PLACEHOLDER.test(assignment[3]!)) return null;
  return /pass|pwd/i.test(assignment[1]!) ? 'password' : 'secret value';
}

/** What stands in for each character of a secret: one UTF-16 unit, so a masked text keeps its lines and columns. */
export const MASK_CHAR = '•';

const PRIVATE_KEY_BEGIN = SHAPES[0]!.re;
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/;
const GLOBAL_SHAPES = SHAPES.slice(1).map((s) => new RegExp(s.re.source, 'g'));
const ASSIGNMENT_SPANS = new RegExp(ASSIGNMENT.source, 'di');

export interface MaskedText {
  /** The text with every secret findSecrets() would report replaced by MASK_CHAR, character for character. */
  text: string;
  /** How many secrets were masked (a private key block counts once). */
  count: number;
}

/**
 * The text as it may be shown before a person asks to see its secrets: the same shapes as findSecrets(),
 * but every one on every line (no cap, the whole of a long line), and a private key's whole block, not
 * only its BEGIN line. Only the secret itself is masked: `token: ••••` keeps what it was.
 */
export function maskSecrets(text: string): MaskedText {
  CANDIDATE.lastIndex = 0;
  if (!CANDIDATE.test(text)) return { text, count: 0 };
  const lines = text.split('\n');
  let count = 0;
  let inKey = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (inKey || PRIVATE_KEY_BEGIN.test(line)) {
      if (!inKey) count++;
      inKey = !PRIVATE_KEY_END.test(line);
      lines[i] = line.replace(/[^\r]/g, MASK_CHAR);
      continue;
    }
    CANDIDATE.lastIndex = 0;
    if (!CANDIDATE.test(line)) continue;
    const spans: [number, number][] = [];
    for (const re of GLOBAL_SHAPES) {
      re.lastIndex = 0;
      for (const m of line.matchAll(re)) spans.push([m.index, m.index + m[0].length]);
    }
    if (spans.length === 0) {
      const assignment = ASSIGNMENT_SPANS.exec(line.replace(/\r$/, ''));
      if (assignment !== null && !PLACEHOLDER.test(assignment[3]!)) spans.push(assignment.indices![3]!);
    }
    if (spans.length === 0) continue;
    // Shapes overlap (an Anthropic key is also sk-…): each stretch of masked text is one secret.
    spans.sort((a, b) => a[0] - b[0]);
    let masked = line;
    let reached = -1;
    for (const [start, end] of spans) {
      if (start >= reached) count++;
      masked = masked.slice(0, start) + MASK_CHAR.repeat(end - start) + masked.slice(end);
      reached = Math.max(reached, end);
    }
    lines[i] = masked;
  }
  return count === 0 ? { text, count } : { text: lines.join('\n'), count };
}
