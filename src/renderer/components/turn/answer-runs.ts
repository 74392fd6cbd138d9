/**
 * One answer can take several steps (a tool call, its result, the next step): each step is its own assistant turn.
 * The answer gets one footer (model, numbers, Copy, Regenerate) under its last step; Regenerate and the branch
 * switcher act on its first step, which is the one that has siblings. Pure.
 */
import { turnText, type Turn } from '../../../shared/turn';
import { answerStats, formatStats, type AnswerStats } from './answer-stats';

export interface RunInfo {
  /** The answer's first step (its siblings are other answers to the same message). */
  first: Turn;
  /** This is the answer's last step so far: the footer goes here. */
  last: boolean;
  /** The answer's numbers over all its steps, formatted ('' while it streams or when none are known). */
  stats: string;
}

function sumStats(steps: Turn[]): AnswerStats {
  const each = steps.map(answerStats);
  const out: AnswerStats = {};
  if (each.some((s) => s.tokens !== undefined)) out.tokens = each.reduce((n, s) => n + (s.tokens ?? 0), 0);
  // Speed over the whole answer: its tokens over its generation time, where every step says its time.
  const seconds = steps.map((t) => t.usage?.generationMs);
  if (out.tokens !== undefined && seconds.every((ms) => ms !== undefined && ms > 0)) {
    out.tokensPerSecond = out.tokens / (seconds.reduce((a: number, ms) => a + (ms ?? 0), 0) / 1000);
  }
  const first = each[0]?.ttftMs;
  if (first !== undefined) out.ttftMs = first;
  return out;
}

/**
 * A step that only called a tool (no words for the user): its one token and its speed say nothing about the answer,
 * and read as noise under the call's card while the tool runs or waits for approval. The answer's figures come under
 * the step that answers.
 */
const onlyCallsTools = (t: Turn) => t.blocks.some((b) => b.type === 'tool_call') && turnText(t).trim() === '';

export function answerRuns(turns: readonly Turn[]): Map<string, RunInfo> {
  const out = new Map<string, RunInfo>();
  let run: Turn[] = [];
  const close = () => {
    const first = run[0];
    if (!first) return;
    const streaming = run.some((t) => t.status === 'streaming');
    const lastStep = run[run.length - 1];
    const stats = streaming || (lastStep && onlyCallsTools(lastStep)) ? '' : formatStats(sumStats(run)).join(' · ');
    run.forEach((t, i) => out.set(t.id, { first, last: i === run.length - 1, stats: i === run.length - 1 ? stats : '' }));
    run = [];
  };
  for (const t of turns) {
    if (t.role === 'user') close();
    else if (t.role === 'assistant') run.push(t);
  }
  close();
  return out;
}
