import { useState } from 'react';
import type { Turn } from '../../../shared/turn';
import { decideTool, type ToolDecisionRequest } from '../../store/tool-approval';
import { focusComposer } from '../composer/focus-composer';

type Decision = ToolDecisionRequest['decision'];

/**
 * Approve/deny buttons of a pending `tool-approval` card; main updates the card once the decision lands. A tool
 * of an MCP server can also be allowed for good (Settings → Tools shows and undoes it).
 */
export function ToolApproval({ turn }: { turn: Turn }) {
  const [busy, setBusy] = useState(false);
  const { toolCallId, turnId, server } = turn.meta;
  if (turn.meta.state !== 'pending' || typeof toolCallId !== 'string' || typeof turnId !== 'string') return null;
  const decide = async (decision: Decision) => {
    setBusy(true);
    try {
      // These buttons go once the decision lands, and the focus with them: the message box takes it (Escape there
      // stops the run that goes on). One that did not land is sent again by the notice's Retry.
      await decideTool({ conversationId: turn.conversationId, turnId, toolCallId, decision }, focusComposer);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="approval-actions">
      <button type="button" data-testid="tool-allow-once" disabled={busy} onClick={() => void decide('allow-once')}>
        Allow once
      </button>
      <button type="button" data-testid="tool-allow-conversation" disabled={busy} onClick={() => void decide('allow-conversation')}>
        Allow in this chat
      </button>
      {typeof server === 'string' && (
        <button type="button" data-testid="tool-allow-always" disabled={busy} onClick={() => void decide('allow-always')}>
          Always allow
        </button>
      )}
      <button type="button" data-testid="tool-deny" disabled={busy} onClick={() => void decide('deny')}>
        Deny
      </button>
    </div>
  );
}
