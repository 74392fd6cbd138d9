import { memo } from 'react';
import type { AttachmentBlock, Turn } from '../../../shared/turn';
import { ErrorBoundary } from '../ErrorBoundary';
import { AssistantTurn } from './AssistantTurn';
import { SystemCard } from './SystemCard';
import { ToolCallCard } from './ToolCallCard';
import type { ToolAnswers } from './tool-answers';
import { UserTurn } from './UserTurn';

const NO_ANSWERS: ToolAnswers = new Map();

/** One turn of any role. Every model-provided string is text or sanitized markdown, never raw HTML. */
export const TurnView = memo(function TurnView({ turn, answers = NO_ANSWERS }: { turn: Turn; answers?: ToolAnswers }) {
  return (
    <article className={`turn turn-${turn.role}`} data-testid="turn" data-role={turn.role} data-status={turn.status} data-turn-id={turn.id}>
      <ErrorBoundary what="This message" resetKey={turn}>
        <TurnBody turn={turn} answers={answers} />
      </ErrorBoundary>
    </article>
  );
});

function TurnBody({ turn, answers }: { turn: Turn; answers: ToolAnswers }) {
  return (
    <>
      {turn.role === 'user' && <UserTurn turn={turn} />}
      {turn.role === 'assistant' && <AssistantTurn turn={turn} answers={answers} />}
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
