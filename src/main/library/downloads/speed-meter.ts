/** Speed over the last few seconds (one slow chunk must not swing the time left), and a throttle for reports. */
export class SpeedMeter {
  private readonly samples: { at: number; bytes: number }[] = [];
  private lastReport = -Infinity;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly windowMs = 5_000,
    private readonly reportEveryMs = 250,
  ) {}

  add(bytes: number): void {
    const at = this.now();
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && (this.samples[0]?.at ?? Infinity) < at - this.windowMs) this.samples.shift();
  }

  /** Bytes per second, or null until there is a quarter second to measure over. */
  speed(): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < 250) return null;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.at - first.at));
  }

  /** True at most once per `reportEveryMs`. */
  due(): boolean {
    const at = this.now();
    if (at - this.lastReport < this.reportEveryMs) return false;
    this.lastReport = at;
    return true;
  }
}
