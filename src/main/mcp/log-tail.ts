/** How far back from the end an error line is looked for: a usage text printed after it is this short. */
const TELLING_LINES = 12;
// An exception's name counts too ("TypeError: …", Python's "ModuleNotFoundError: …"): Node prints its version after
// the stack, and "Node.js v22.1.0" was quoted as the reason a server that threw at start failed.
const ERROR_WORDS = /\b(error|fatal|unknown|invalid|cannot|can't|could not|couldn't|failed|not found|not set|missing|denied|refused|exception|unexpected|no such)\b|^\w*(Error|Exception)\b/i;

/** The last lines a server wrote (stderr, and stdout that was not protocol), bounded, for Settings → Tools. */
export class LogTail {
  private text = '';

  constructor(
    private readonly maxChars = 4000,
    private readonly maxLines = 40,
  ) {}

  append(chunk: string): void {
    let next = this.text + chunk;
    if (next.length > this.maxChars * 2) next = next.slice(-this.maxChars * 2);
    const lines = next.split('\n');
    if (lines.length > this.maxLines + 1) next = lines.slice(-(this.maxLines + 1)).join('\n');
    this.text = next;
  }

  /** The tail as shown: at most `maxChars`, starting at a line where it can. */
  value(): string {
    if (this.text.length <= this.maxChars) return this.text;
    const cut = this.text.slice(-this.maxChars);
    const nl = cut.indexOf('\n');
    return nl >= 0 && nl < cut.length - 1 ? cut.slice(nl + 1) : cut;
  }

  /**
   * The line of the last few that says what went wrong, for an error message: the last one that reads like an
   * error, else the last one. A program that prints its usage after the error was quoted by its usage's last
   * line ("- streamableHttp"), not "Unknown transport: bogus-transport" three lines up (tools audit #8).
   */
  tellingLine(maxChars = 300): string {
    const lines = this.text.split('\n').map((l) => l.trim()).filter((l) => l !== '').slice(-TELLING_LINES);
    const line = lines.findLast((l) => ERROR_WORDS.test(l)) ?? lines.at(-1) ?? '';
    return line.length > maxChars ? `${line.slice(0, maxChars)}…` : line;
  }

  /**
   * The last line written, untrimmed; '' when none. A line not ended yet counts (a prompt), and a carriage return
   * starts the line again, as on a terminal (a progress bar's latest state, not all of them run together).
   */
  lastLine(): string {
    return this.text.split(/\r\n|\n|\r/).findLast((l) => l.trim() !== '') ?? '';
  }

  clear(): void {
    this.text = '';
  }
}
