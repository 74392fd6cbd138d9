/**
 * One answer can take several steps (a tool call, its result, the next step): each step is its own assistant turn.
 * The answer gets one footer (model, numbers, Copy, Regenerate) under its last step; Regenerate and the branch
 * switcher act on its first step, which is the one that has siblings. Pure.
 */
import { turnText, type Turn } from '../../../shared/turn';
import { CHARS_PER_TOKEN } from '../../../shared/context-estimate';
import { answerStats, formatStats, type AnswerStats } from './answer-stats';
import { countedTokens, generatedChars, serverCounted } from './live-stats';

export interface RunInfo {
  /** The answer's first step (its siblings are other answers to the same message). */
  first: Turn;
  /** This is the answer's last step so far: the footer goes here. */
  last: boolean;
  /** The answer's numbers over all its steps, formatted ('' while it streams or when none are known). */
  stats: string;
}

/**
 * The answer's figures over its steps. Each step's count is the server's where it finished with one; where it did not
 * (stopped, cut off, or a server that sends none), main's running count saved with the step, which covers the whole
 * answer up to it (main counts on from the earlier steps' figures, engine/step-loop.ts), or, for a step saved before
 * main counted, its characters at the context meter's rule. Such a total is marked "~". A stopped answer whose last
 * step had no figure showed the first step's count alone, as if exact ("12 tokens" under 300 words).
 */
function sumStats(steps: Turn[]): AnswerStats {
  const out: AnswerStats = {};
  let tokens = 0;
  let known = false;
  let approximate = false;
  for (const step of steps) {
    const server = serverCounted(step) ? step.usage?.outputTokens : undefined;
    const saved = countedTokens(step);
    if (server !== undefined) tokens += server;
    else if (saved !== undefined) tokens = saved;
    else tokens += Math.round(generatedChars(step) / CHARS_PER_TOKEN);
    if (server !== undefined || saved !== undefined) known = true;
    if (server === undefined) approximate = true;
  }
  // No step with a figure of its own (an answer from before main counted, from a server that sends none): none shown.
  if (known) {
    out.tokens = tokens;
    if (approximate) out.approximate = true;
  }
  // Speed over the whole answer, where every step says its count and time: the tokens those times cover (llama-server's
  // leave out each step's first, answer-stats.ts) over them.
  const seconds = steps.map((t) => t.usage?.generationMs);
  const timed = steps.reduce((n, t) => n + (t.usage?.generatedTokens ?? t.usage?.outputTokens ?? 0), 0);
  if (out.tokens !== undefined && !approximate && timed > 0 && seconds.every((ms) => ms !== undefined && ms > 0)) {
    out.tokensPerSecond = timed / (seconds.reduce((a: number, ms) => a + (ms ?? 0), 0) / 1000);
  }
  const first = steps[0] ? answerStats(steps[0]).ttftMs : undefined;
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
