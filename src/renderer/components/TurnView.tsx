import { memo } from 'react';
import type { Turn } from '../../shared/turn';
import { stopTurn } from '../store';

const STATUS_LABEL: Partial<Record<Turn['status'], string>> = {
  error: 'Error',
  cut: 'Cut off',
  aborted: 'Stopped',
  interrupted: 'Interrupted: Firebrand closed while this answer was streaming',
};

/** One turn. Every model-provided string is rendered as text, never as HTML. */
export const TurnView = memo(function TurnView({ turn }: { turn: Turn }) {
  const streaming = turn.status === 'streaming';
  return (
    <article className={`turn turn-${turn.role}`} data-testid={`turn-${turn.role}`} data-status={turn.status} data-turn-id={turn.id}>
      {turn.blocks.map((block, i) => {
        switch (block.type) {
          case 'text':
            return (
              <div key={i} className="text" data-testid="turn-text">
                {block.text}
              </div>
            );
          case 'reasoning':
            return (
              <details key={i} className="reasoning" open={streaming}>
                <summary>Thinking</summary>
                <div className="reasoning-text">{block.text}</div>
              </details>
            );
          case 'tool_call':
            return (
              <div key={i} className="tool-call">
                Tool call: {block.name} ({block.state})
              </div>
            );
          case 'tool_result':
            return (
              <div key={i} className="tool-result">
                {block.content}
              </div>
            );
          case 'attachment':
            return (
              <div key={i} className="attachment">
                {block.name}
              </div>
            );
          default:
            return null;
        }
      })}
      {streaming && turn.blocks.length === 0 && <div className="typing">…</div>}
      {streaming && (
        <button type="button" className="stop" data-testid="composer-stop" onClick={() => void stopTurn(turn.id)}>
          Stop
        </button>
      )}
      {STATUS_LABEL[turn.status] && (
        <div className="turn-status" role="alert" data-testid="turn-error">
          <strong>{STATUS_LABEL[turn.status]}.</strong> {turn.error ?? ''}
        </div>
      )}
    </article>
  );
});
