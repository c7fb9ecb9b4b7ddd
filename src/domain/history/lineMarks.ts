// Finds, in a session log read chunk by chunk, the few lines a plan's story needs, without decoding the
// rest: a log is mostly tool output, and a heavy home has gigabytes of it. A line is marked when
//   - it holds a tool call of Write, Edit, MultiEdit or ExitPlanMode (`"name":"<tool>"`, as Claude Code
//     serializes a tool_use block: inside a JSON string the quotes would be escaped);
//   - its `"type"`, within its first bytes, says it is a metadata line (titles, prompts, cost), an
//     attachment (plan mode) or a user line (prompts, tool results);
// and the first and the last complete lines are marked too (a session's first and last timestamps).
// Marked lines are read again whole and parsed (transcriptFacts.ts). The marks depend only on the bytes,
// never on where the chunks are cut (test/history/lineMarks.property.test.ts).

const NEWLINE = 0x0a;
const NAME_KEY = Buffer.from('"name":"');
const TOOLS = ['Write"', 'Edit"', 'MultiEdit"', 'ExitPlanMode"'].map((t) => Buffer.from(t));
/** A tool key and its value: what must be seen whole, across a chunk boundary too. */
const TOOL_MATCH_BYTES = NAME_KEY.length + Math.max(...TOOLS.map((t) => t.length));
/** How far into a line its `"type"` is looked for: conversation lines put it after parentUuid and isSidechain. */
export const HEAD_BYTES = 256;
const HEAD_TYPES = ['custom-title', 'ai-title', 'summary', 'last-prompt', 'cost-state', 'attachment', 'user'] as const;
const HEAD_NEEDLES = HEAD_TYPES.map((t) => Buffer.from(`"type":"${t}"`));

export type HeadType = (typeof HEAD_TYPES)[number];

/** A line's place in its file: [start, end), its `\n` excluded. */
export interface LineRange {
  start: number;
  end: number;
}

/** A marked line and why: a tool call in it, the type its head names, its place among the pass's lines. */
export interface MarkedLine extends LineRange {
  /** Its 1-based line number in the file. */
  number: number;
  tool: boolean;
  type: HeadType | null;
  first: boolean;
  last: boolean;
}

export interface MarkedLines {
  /** Lines to parse, in file order. */
  lines: MarkedLine[];
  /** Just past the last `\n` seen: where the next pass starts (a partial line is read again then). */
  completedTo: number;
  /** How many lines the file holds before `completedTo`: the next pass's line numbers go on from it. */
  linesBefore: number;
}

export class LineMarker {
  private lineStart: number;
  /** Absolute positions of tool keys not yet past, in order. */
  private readonly toolHits: number[] = [];
  /** The first bytes of the current line, until HEAD_BYTES of them are here or the line ends. */
  private head: Buffer = Buffer.alloc(0);
  /** The current line's head type once decided (null: none), undefined while its head is still coming. */
  private headType: HeadType | null | undefined = undefined;
  /** The last bytes of the previous chunk: a tool key cut by the boundary is found in them joined to the next. */
  private carry: Buffer = Buffer.alloc(0);
  private carryStart = 0;
  private readonly lines: MarkedLine[] = [];
  private first = true;
  private lastComplete: MarkedLine | null = null;
  private lineNumber: number;

  /** `start`: the file offset the pass starts at (always a line start), after `linesBefore` lines. */
  constructor(start: number, private readonly linesBefore = 0) {
    this.lineStart = start;
    this.lineNumber = linesBefore + 1;
  }

  /**
   * The next bytes of the file, from `position` (where the previous feed() said to go on). Returns how
   * many it took: up to its last `\n`, so the unfinished line after it is fed again with the next chunk
   * (the caller reads from there); all of them when they hold no `\n` (the middle of a huge line).
   */
  feed(chunk: Buffer, position: number): number {
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    const taken = lastNewline === -1 ? chunk.length : lastNewline + 1;
    this.findTools(chunk, position, lastNewline === -1);
    let at = 0;
    while (at < taken) {
      const nl = chunk.indexOf(NEWLINE, at);
      const end = nl === -1 || nl >= taken ? taken : nl;
      if (this.headType === undefined) this.takeHead(chunk.subarray(at, end), nl !== -1 && nl < taken);
      if (nl === -1 || nl >= taken) break;
      this.endLine(position + nl);
      at = nl + 1;
    }
    return taken;
  }

  /** The marked lines of the pass (the last complete line among them). */
  finish(): MarkedLines {
    const last = this.lastComplete;
    if (last !== null) {
      last.last = true;
      if (this.lines.at(-1) !== last) this.lines.push(last);
    }
    return last !== null
      ? { lines: this.lines, completedTo: last.end + 1, linesBefore: last.number }
      : { lines: this.lines, completedTo: this.lineStart, linesBefore: this.linesBefore };
  }

  /**
   * Tool keys in what feed() takes of the chunk. In the middle of a huge line (`continuing`) a key too
   * close to the chunk's end is found in the next feed(), in this chunk's carried tail joined to that one's
   * start; a chunk with a `\n` is taken only up to it, and a key before it ends before it.
   */
  private findTools(chunk: Buffer, position: number, continuing: boolean): void {
    if (this.carry.length > 0) {
      const joined = Buffer.concat([this.carry, chunk.subarray(0, TOOL_MATCH_BYTES)]);
      for (let at = joined.indexOf(NAME_KEY); at !== -1 && at < this.carry.length; at = joined.indexOf(NAME_KEY, at + 1)) {
        if (isTool(joined, at + NAME_KEY.length)) this.toolHits.push(this.carryStart + at);
      }
    }
    const taken = continuing ? chunk.length : chunk.lastIndexOf(NEWLINE) + 1;
    for (let at = chunk.indexOf(NAME_KEY); at !== -1 && at < taken; at = chunk.indexOf(NAME_KEY, at + 1)) {
      if (continuing && at + TOOL_MATCH_BYTES > chunk.length) break; // found through the carry
      if (isTool(chunk, at + NAME_KEY.length)) this.toolHits.push(position + at);
    }
    if (!continuing) {
      this.carry = Buffer.alloc(0);
      return;
    }
    // The last bytes fed so far, across chunks smaller than a key.
    const tail = this.carry.length > 0 && chunk.length < TOOL_MATCH_BYTES - 1 ? Buffer.concat([this.carry, chunk]) : chunk;
    const keep = Math.min(tail.length, TOOL_MATCH_BYTES - 1);
    this.carry = Buffer.from(tail.subarray(tail.length - keep));
    this.carryStart = position + chunk.length - keep;
  }

  private takeHead(bytes: Buffer, lineEnds: boolean): void {
    const head = this.head.length === 0 ? bytes.subarray(0, HEAD_BYTES) : Buffer.concat([this.head, bytes.subarray(0, HEAD_BYTES - this.head.length)]);
    if (head.length < HEAD_BYTES && !lineEnds) {
      this.head = Buffer.from(head); // it outlives the chunk
      return;
    }
    this.head = Buffer.alloc(0);
    const at = HEAD_NEEDLES.findIndex((needle) => head.includes(needle));
    this.headType = at === -1 ? null : HEAD_TYPES[at]!;
  }

  private endLine(end: number): void {
    let tool = false;
    while (this.toolHits.length > 0 && this.toolHits[0]! < end) {
      if (this.toolHits.shift()! >= this.lineStart) tool = true;
    }
    const line: MarkedLine = { start: this.lineStart, end, number: this.lineNumber++, tool, type: this.headType ?? null, first: this.first, last: false };
    if (tool || line.type !== null || this.first) this.lines.push(line);
    this.first = false;
    this.lastComplete = line;
    this.lineStart = end + 1;
    this.headType = undefined;
  }
}

function isTool(bytes: Buffer, at: number): boolean {
  return TOOLS.some((tool) => at + tool.length <= bytes.length && bytes.compare(tool, 0, tool.length, at, at + tool.length) === 0);
}
