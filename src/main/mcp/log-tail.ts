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

  /** The last non-empty line, for an error message. */
  lastLine(maxChars = 300): string {
    const lines = this.text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    const last = lines.at(-1) ?? '';
    return last.length > maxChars ? `${last.slice(0, maxChars)}…` : last;
  }

  clear(): void {
    this.text = '';
  }
}
