/**
 * What the benchmarks measure inside the page, installed the same way in Firebrand and in the bare floor page:
 * when each stamped token first reaches the screen, main-thread long tasks, and frame intervals.
 *
 * "Reaches the screen" is the first task after the rendering update that includes the DOM change: a message
 * posted from a requestAnimationFrame callback runs right after that frame is painted. A change made inside the
 * frame's own rendering (Firebrand applies parts in a rAF callback) is painted by that frame; a change made
 * between frames waits for the next one. The probe's own rAF loop is registered first each frame, so it knows
 * which of the two a mutation is.
 *
 * A plain script string, not a function: tsx's keepNames would wrap a serialized function's inner names in a
 * helper the page does not have.
 */
import type { Page } from 'playwright-core';
import { clock } from './paced-stream';

export interface ProbeResult {
  /** Page-clock paint time per token sequence number. */
  paint: Record<number, number>;
  /** Frame intervals (ms) while recording. */
  frames: number[];
  /** Long-task durations (ms) while recording. */
  longtasks: number[];
  /** When each long task began, in ms since recording began (in step with `longtasks`). */
  longtaskAt: number[];
  last: number;
  /** ms from the start of recording to its read. */
  elapsed: number;
}

const PROBE = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const P = (window.__probe = { paint: {}, frames: [], longtasks: [], longtaskAt: [], since: 0, last: -1, recording: false, target: null, re: null });
  let inFrame = false, thisFrame = [], nextFrame = [], prevTs = null;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    inFrame = false;
    const t = now();
    for (const s of thisFrame) P.paint[s] = t;
    thisFrame = [];
  };
  const loop = (ts) => {
    inFrame = true;
    if (nextFrame.length) { thisFrame = thisFrame.concat(nextFrame); nextFrame = []; }
    if (P.recording && prevTs !== null) P.frames.push(ts - prevTs);
    prevTs = ts;
    channel.port2.postMessage(0);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  new PerformanceObserver((list) => {
    if (P.recording) for (const e of list.getEntries()) { P.longtasks.push(e.duration); P.longtaskAt.push(e.startTime - P.since); }
  }).observe({ type: 'longtask' });
  new MutationObserver(() => {
    if (!P.re || !P.target) return;
    const roots = document.querySelectorAll(P.target);
    const root = roots[roots.length - 1];
    if (!root) return;
    let max = -1;
    for (const m of (root.textContent || '').slice(-200).matchAll(P.re)) max = Math.max(max, Number(m[1]));
    if (max <= P.last) return;
    const queue = inFrame ? thisFrame : nextFrame;
    for (let s = P.last + 1; s <= max; s++) queue.push(s);
    P.last = max;
  }).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
})()`;

export async function installProbe(page: Page): Promise<void> {
  await page.evaluate(PROBE);
}

/** Starts a measured stream: tokens stamped `${tag}x${seq}` inside the last element matching `target`. */
export async function armProbe(page: Page, target: string, tag: string): Promise<void> {
  await page.evaluate(startRecording(JSON.stringify(target), `new RegExp(${JSON.stringify(`${tag}x(\\d+)`)}, 'g')`));
}

/** Starts recording frames and long tasks only (no token tracking, whose DOM reads would load the page). */
export async function recordFrames(page: Page): Promise<void> {
  await page.evaluate(startRecording('null', 'null'));
}

/** The script that clears the probe and starts a recording; `target` and `re` are script expressions. */
function startRecording(target: string, re: string): string {
  return `Object.assign(window.__probe, { paint: {}, frames: [], longtasks: [], longtaskAt: [], since: performance.now(), last: -1, recording: true, target: ${target}, re: ${re} })`;
}

export async function readProbe(page: Page, stop = true): Promise<ProbeResult> {
  return page.evaluate(`(() => { const P = window.__probe; if (${stop}) P.recording = false; return { paint: P.paint, frames: P.frames, longtasks: P.longtasks, longtaskAt: P.longtaskAt, last: P.last, elapsed: performance.now() - P.since }; })()`);
}

/** Waits until token `seq` has been painted (or the timeout passes: what was painted is still read). */
export async function waitPainted(page: Page, seq: number, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(`window.__probe.paint[${seq}] !== undefined`, undefined, { timeout: timeoutMs, polling: 50 }).catch(() => undefined);
}

/**
 * Page clock minus bench clock, from the round trip with the smallest delay: both are wall-clock based, but
 * each process fixes its origin separately.
 */
export async function clockOffset(page: Page): Promise<number> {
  let best = { rtt: Infinity, offset: 0 };
  for (let i = 0; i < 15; i++) {
    const before = clock();
    const pageTime = await page.evaluate<number>('performance.timeOrigin + performance.now()');
    const after = clock();
    if (after - before < best.rtt) best = { rtt: after - before, offset: pageTime - (before + after) / 2 };
  }
  return best.offset;
}

/** Write-to-paint latency (ms) of every painted token. */
export function latencies(writes: number[], probe: ProbeResult, offset: number): number[] {
  const out: number[] = [];
  for (const [i, written] of writes.entries()) {
    const painted = probe.paint[i];
    if (painted !== undefined) out.push(painted - offset - written);
  }
  return out.sort((a, b) => a - b);
}

const FRAME_MS = 1000 / 60;

/** Share of frames missed: each interval counts round(Δ/16.7) frames, of which all but one were missed. */
export function missedFrameShare(frames: number[]): number {
  let expected = 0;
  let missed = 0;
  for (const d of frames) {
    const n = Math.max(1, Math.round(d / FRAME_MS));
    expected += n;
    if (d > 1.5 * FRAME_MS) missed += n - 1;
  }
  return expected === 0 ? 0 : missed / expected;
}
