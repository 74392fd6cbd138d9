import { turnTimingMeta } from '../../../shared/turn-timing';
import { memo, useState } from 'react';
import { finalAssistantText } from '../../../shared/assistant-text';
import type { Turn } from '../../../shared/turn';
import { answerKey, type ToolAnswer, type ToolAnswers } from './tool-answers';
import { regenerate } from '../../store/branch-actions';
import { answerStats, formatStats } from './answer-stats';
import { BranchSwitcher } from './BranchSwitcher';
import { Markdown } from './Markdown';
import { ThinkingBlock } from './ThinkingBlock';
import { ToolCallCard } from './ToolCallCard';

/** Stops that ended an answer early, in words; `end_turn` and `tool_use` are normal and say nothing. */
const STOP_LABEL: Record<string, string> = {
  cut: 'Cut off',
  max_tokens: 'Stopped at the token limit',
  truncated: 'Ended in the middle of a block',
  error: 'Error',
  aborted: 'Stopped',
};

function stopLabel(turn: Turn): string | null {
  if (turn.status === 'interrupted') return 'Interrupted: Firebrand closed while this answer was streaming';
  if (turn.status === 'streaming') return null;
  if (turn.stop && turn.stop !== 'end_turn' && turn.stop !== 'tool_use') return STOP_LABEL[turn.stop] ?? `Stopped (${turn.stop})`;
  if (turn.status === 'error' || turn.status === 'cut' || turn.status === 'aborted') return STOP_LABEL[turn.status] ?? 'Error';
  return null;
}

const withAnswer = (answer: ToolAnswer | undefined) => (answer ? { answer } : {});

interface Props {
  turn: Turn;
  /** What this turn's tool calls got back, wherever it was recorded. */
  answers: ToolAnswers;
}

/** An answer: its runs in stream order, then its numbers and actions. */
export const AssistantTurn = memo(function AssistantTurn({ turn, answers }: Props) {
  const [copied, setCopied] = useState(false);
  const streaming = turn.status === 'streaming';
  const problem = stopLabel(turn);
  let reasoningOrdinal = 0;
  const savedReasoning = turnTimingMeta(turn).reasoningMs;
  const stats = streaming ? [] : formatStats(answerStats(turn));
  const answer = finalAssistantText([turn]);

  const copy = () => {
    void navigator.clipboard.writeText(answer).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };

  return (
    <>
      {turn.blocks.map((block, i) => {
        switch (block.type) {
          case 'reasoning':
            return <ThinkingBlock key={i} turnId={turn.id} text={block.text} ordinal={reasoningOrdinal} savedMs={savedReasoning[reasoningOrdinal++]} active={streaming && i === turn.blocks.length - 1} />;
          case 'text':
            return (
              <div key={i} className="answer" data-run="answer">
                <Markdown text={block.text} />
              </div>
            );
          case 'tool_call':
            return <ToolCallCard key={i} call={block} turnId={turn.id} {...withAnswer(answers.get(answerKey(turn.id, block.id)))} />;
          case 'tool_result':
            return null;
          case 'attachment':
            return null;
          default:
            return null;
        }
      })}
      {streaming && turn.blocks.length === 0 && <div className="typing" aria-label="Waiting for the first token">…</div>}
      {problem && (
        <div className="turn-status" role="alert" data-testid="turn-error" data-stop={turn.stop ?? turn.status}>
          <strong>{problem}.</strong> {turn.error ?? ''}
        </div>
      )}
      {!streaming && (
        <div className="turn-footer">
          <BranchSwitcher turn={turn} />
          {stats.length > 0 && (
            <span className="stats" data-testid="answer-stats">
              {stats.join(' · ')}
            </span>
          )}
          <span className="actions">
            {answer !== '' && (
              <button type="button" data-testid="copy-answer" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </button>
            )}
            <button type="button" data-testid={problem ? 'turn-retry' : 'regenerate'} onClick={() => void regenerate(turn)}>
              {problem ? 'Retry' : 'Regenerate'}
            </button>
          </span>
        </div>
      )}
    </>
  );
});
