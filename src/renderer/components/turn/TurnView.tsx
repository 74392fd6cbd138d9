import { memo } from 'react';
import type { AttachmentBlock, Turn } from '../../../shared/turn';
import { ErrorBoundary } from '../ErrorBoundary';
import { AssistantTurn } from './AssistantTurn';
import { SystemCard } from './SystemCard';
import { ToolCallCard } from './ToolCallCard';
import type { ToolAnswers } from './tool-answers';
import { UserTurn } from './UserTurn';
import type { RunInfo } from './answer-runs';
import { useLiveTurn } from '../../store/live-turns';

const NO_ANSWERS: ToolAnswers = new Map();

/** One turn of any role. Every model-provided string is text or sanitized markdown, never raw HTML. */
interface Props {
  turn: Turn;
  /** What this turn's tool calls got back, wherever it was recorded. */
  answers?: ToolAnswers;
  /** Where this turn sits in its answer (answer-runs.ts); absent for turns that are not answers. */
  run?: RunInfo | undefined;
  /** The search hit the chat was opened at. */
  hit?: boolean;
}

export const TurnView = memo(function TurnView({ turn: stored, answers = NO_ANSWERS, run, hit = false }: Props) {
  // A streaming answer's text grows here between the store's updates (store/live-turns.ts).
  const turn = useLiveTurn(stored);
  return (
    <article
      className={`turn turn-${turn.role}${hit ? ' search-hit' : ''}`}
      data-testid="turn"
      data-role={turn.role}
      data-status={turn.status}
      data-turn-id={turn.id}
      {...(hit ? { 'data-search-hit': 'true' } : {})}
    >
      <ErrorBoundary what="This message" resetKey={turn}>
        <TurnBody turn={turn} answers={answers} run={run} />
      </ErrorBoundary>
    </article>
  );
}, (a, b) => a.turn === b.turn && a.answers === b.answers && a.hit === b.hit && a.run?.first === b.run?.first && a.run?.last === b.run?.last && a.run?.stats === b.run?.stats);

function TurnBody({ turn, answers, run }: { turn: Turn; answers: ToolAnswers; run: RunInfo | undefined }) {
  return (
    <>
      {turn.role === 'user' && <UserTurn turn={turn} />}
      {turn.role === 'assistant' && <AssistantTurn turn={turn} answers={answers} runFirst={run?.first} runLast={run?.last} runStats={run?.stats} />}
      {turn.role === 'system' && <SystemCard turn={turn} />}
      {turn.role === 'tool' &&
        // Results normally show inside their call's card; a tool turn whose call is not on screen shows them here.
        turn.blocks.map((b, i) =>
          b.type === 'tool_result' ? (
            <ToolCallCard
              key={i}
              call={{ type: 'tool_call', id: b.toolCallId, name: b.name, state: 'complete', argumentsRaw: '' }}
              answer={{ result: b, images: turn.blocks.filter((x) => x.type === 'attachment' && x.toolCallId === b.toolCallId) as AttachmentBlock[] }}
            />
          ) : null,
        )}
    </>
  );
}
