// Where the CLI writes what it has to say. In a terminal: colours (unless NO_COLOR, TERM=dumb or a
// terminal without them; Node's hasColors() reads those) and a status line that is rewritten in place.
// Into a pipe or a file: plain lines only, no escape sequence, so logs and scripts read clean text.

type Style = (text: string) => string;

const sgr = (open: number, close: number): Style => (text) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain: Style = (text) => text;

export interface Styles {
  bold: Style;
  dim: Style;
  cyan: Style;
  green: Style;
  yellow: Style;
}

const COLOURS: Styles = { bold: sgr(1, 22), dim: sgr(2, 22), cyan: sgr(36, 39), green: sgr(32, 39), yellow: sgr(33, 39) };
const NONE: Styles = { bold: plain, dim: plain, cyan: plain, green: plain, yellow: plain };

export interface Output {
  write(chunk: string): unknown;
  isTTY?: boolean;
  hasColors?: () => boolean;
  columns?: number;
}

export class Terminal {
  readonly interactive: boolean;
  readonly style: Styles;
  private statusShown = false;

  constructor(private readonly out: Output = process.stdout) {
    this.interactive = out.isTTY === true;
    this.style = this.interactive && out.hasColors?.() === true ? COLOURS : NONE;
  }

  /** Whole lines, below the status line if one is shown (it is taken away first). */
  lines(lines: string[]): void {
    this.out.write(`${this.statusShown ? '\r\x1b[2K' : ''}${lines.join('\n')}\n`);
    this.statusShown = false;
  }

  /**
   * In a terminal, replaces the status line; elsewhere, one more line. `line` is plain text (style it with
   * `styled`): in a terminal it is cut to the width, as a line that wraps could not be rewritten in place.
   */
  status(line: string, styled: (text: string) => string = (text) => text): void {
    if (this.interactive) {
      const width = this.out.columns;
      const fitted = width !== undefined && width > 1 && line.length >= width ? line.slice(0, width - 1) : line;
      this.out.write(`\r\x1b[2K${styled(fitted)}`);
      this.statusShown = true;
    } else {
      this.out.write(`${styled(line)}\n`);
    }
  }

  /** Takes the status line away (in a terminal; printed lines stay). */
  clearStatus(): void {
    if (!this.statusShown) return;
    this.out.write('\r\x1b[2K');
    this.statusShown = false;
  }
}
