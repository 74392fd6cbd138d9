/** One measured figure beside its floor, printed as a `BENCH {...}` line that bench/run.mjs collects. */
export interface BenchFigure {
  figure: string;
  value: number;
  unit: string;
  /** The same work done by the simplest thing that could do it, measured in the same run. */
  floor?: number;
  /** value / floor where lower is better, floor / value where higher is better. */
  ratio?: number;
  goal?: string;
  met?: boolean;
  note?: string;
}

export function report(figure: BenchFigure): void {
  console.log(`BENCH ${JSON.stringify(figure)}`);
}

export const quick = process.argv.includes('--quick');

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
