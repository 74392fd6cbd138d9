import { useState } from 'react';
import type { RoomChoice, RoomPlan } from '../../../shared/context-ipc';
import { messages } from '../../../shared/context-edits';
import { connectionOf, useStore } from '../../store';
import { applyChoice, cancelSummary, useRoom, type EditRoom } from '../../store/context-room';
import { errorMessage } from '../../store/errors';
import { LargerWindowOffer } from '../composer/LargerWindowOffer';
import { focusComposer } from '../composer/focus-composer';
import { formatTokenPair, formatTokens, tokenPairParts } from '../../format';
import { cutNotEnough } from './cut-advice';
import type { PlanState } from './use-room-plan';

const COUNTED = { server: 'counted by the server', tokenizer: 'counted with the model’s tokenizer', estimate: 'estimated' } as const;

/**
 * Every way on when a conversation outgrew its window (issue 21), each with its cost, from main's plan: a larger
 * window, a summary of the turns before a point the user can move, those turns left out of what is sent (after a
 * confirmation that says how many and how many tokens), one large item left out, or a new chat from a summary.
 * Shown on the open refusal card, under the red meter, and in a sent message's edit form (`edit`: each choice sends
 * the edit once it has made room; `onSent` then closes the form). Plain elements and the existing classes only.
 */
export function RoomChoices({
  conversationId,
  state,
  keepFrom,
  onKeepFrom,
  edit,
}: {
  conversationId: string | null;
  state: PlanState | null;
  keepFrom: string | undefined;
  onKeepFrom: (id: string | undefined) => void;
  edit?: EditRoom & { onSent: () => void };
}) {
  const working = useRoom((s) => s.working);
  const models = useStore((s) => s.models);
  const aliases = useStore((s) => s.aliases);
  const selected = useStore((s) => s.selectedModel);
  const [summarizer, setSummarizer] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!state) return null;
  if (state.status === 'loading') return <p className="system-text" data-testid="context-choices-loading">Working out the ways to make room…</p>;
  if (state.status === 'failed') return <p className="field-error" data-testid="context-choice-error">{state.message}</p>;
  const plan: RoomPlan = state.plan;
  const writing = working !== null && working === conversationId;

  const choose = async (choice: RoomChoice) => {
    setBusy(true);
    setError(null);
    try {
      const res = await applyChoice(conversationId, choice, undefined, edit);
      if (!res.ok) setError(edit ? 'No summary was made: see the card at the end of the chat. Nothing was replaced or sent; your edit is kept.' : 'No summary was made: see the card below. Nothing was replaced.');
      // The edit went with the room made: the form closes (and gives the focus to the message box).
      else if (edit) edit.onSent();
      // The room is made and these choices go, with the button pressed: the message box takes the focus, where
      // the draft waits to be sent (it fell to <body>, and the next Tab started over at the top).
      else focusComposer();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  // The picker lists the active connection's models and the aliases (an alias names its own connection).
  const by = summarizer && summarizer !== selected ? { summarizer: { model: summarizer, ...connectionOf() } } : {};
  const cut = plan.cut;
  const summarizedShort = cut && cutNotEnough(cut, 'summarized');
  const droppedShort = cut && cutNotEnough(cut, 'dropped');
  const disabled = busy || writing;
  const andSend = edit ? ' and send' : '';
  return (
    <div className="room-choices" data-testid="context-choices" data-need={plan.need} data-window={plan.window ?? ''} data-counted={plan.counted}>
      <p className="system-label">
        Make room: {plan.window !== null ? `${formatTokenPair(plan.need, plan.window)} tokens of the window` : `${formatTokens(plan.need)} tokens`} ({COUNTED[plan.counted]}), {formatTokens(plan.answerRoom)} kept free for the answer.
      </p>
      {edit && (
        <p className="window-offer" data-testid="context-edit-note">
          Counted for the chat up to this message, with your edit; the messages after it are not sent. Each way sends your edit once it has made room.
        </p>
      )}
      <div className="room-choice">
        <LargerWindowOffer offer={plan.larger} busy={disabled} onUse={(window) => void choose({ kind: 'larger-window', window })} />
      </div>
      {conversationId !== null && cut ? (
        <>
          <label className="room-choice">
            <span>Older turns: the messages before</span>
            <select data-testid="context-cut" value={keepFrom ?? cut.keepFrom} disabled={disabled} onChange={(e) => onKeepFrom(e.target.value)}>
              {plan.cuts.map((c) => (
                <option key={c.turnId} value={c.turnId}>
                  “{c.preview || 'a message'}” ({messages(c.count)} before it)
                </option>
              ))}
            </select>
          </label>
          <div className="room-choice">
            <button type="button" data-testid="context-summarize" disabled={disabled} onClick={() => void choose({ kind: 'summarize', keepFrom: cut.keepFrom, ...by })}>
              Summarize them{andSend}
            </button>
            <span className="window-offer" data-testid="context-summarize-cost">
              {messages(cut.turnIds.length)} ({formatTokens(cut.tokens)} tokens) become a summary of at most {formatTokens(cut.summaryBudget)} tokens; they stay in this chat.
              {summarizedShort ? ` ${summarizedShort[0]!.toUpperCase()}${summarizedShort.slice(1)}.` : ''}
            </span>
            <label className="room-inline">
              with{' '}
              <select data-testid="context-summarizer" value={summarizer ?? selected ?? ''} disabled={disabled} onChange={(e) => setSummarizer(e.target.value)}>
                {aliases.map((a) => (
                  <option key={`alias:${a.id}`} value={a.name}>
                    {a.name}
                  </option>
                ))}
                {models.map((m) => (
                  <option key={m.name} value={m.name}>
                    {m.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <div className="room-choice">
            {confirming ? (
              <>
                <span className="window-offer" data-testid="context-drop-summary">
                  Leave {messages(cut.turnIds.length)} ({formatTokens(cut.tokens)} tokens) out of what is sent? The request becomes {plan.window !== null ? tokenPairParts(cut.after, plan.window).join(' of ') : formatTokens(cut.after)} tokens. They stay in this chat.
                </span>
                <button type="button" data-testid="context-drop-confirm" disabled={disabled} onClick={() => void choose({ kind: 'drop-oldest', keepFrom: cut.keepFrom })}>
                  Leave them out{andSend}
                </button>
                <button type="button" data-testid="context-drop-cancel" onClick={() => setConfirming(false)}>
                  Cancel
                </button>
              </>
            ) : (
              <>
                <button type="button" data-testid="context-drop" disabled={disabled} onClick={() => setConfirming(true)}>
                  Leave them out…
                </button>
                <span className="window-offer">
                  The model no longer sees them{droppedShort ? ` (${droppedShort})` : ''}.
                </span>
              </>
            )}
          </div>
        </>
      ) : (
        plan.noCut && conversationId !== null && <p className="window-offer">{plan.noCut}</p>
      )}
      {conversationId !== null && plan.largest.some((l) => l.drop) && (
        <ul className="system-list room-items">
          {plan.largest.map((item, i) =>
            item.drop && item.turnId ? (
              <li key={i}>
                {item.label} — about {formatTokens(item.tokens)} tokens{' '}
                <button
                  type="button"
                  data-testid="context-drop-item"
                  disabled={disabled}
                  onClick={() =>
                    void choose({
                      kind: 'drop-item',
                      turnId: item.turnId!,
                      item: item.drop!.kind === 'attachment' ? { kind: 'attachment', id: item.drop!.id } : { kind: 'tool_result', toolCallId: item.drop!.toolCallId },
                    })
                  }
                >
                  Leave out
                </button>
              </li>
            ) : null,
          )}
        </ul>
      )}
      {conversationId !== null && plan.newChat && (
        <div className="room-choice">
          <button type="button" data-testid="context-new-chat" disabled={disabled} onClick={() => void choose({ kind: 'new-chat', ...by })}>
            Continue in a new chat
          </button>
          <span className="window-offer">{edit ? 'Your edit is its first message, after a summary of the messages before it; it links back.' : 'It starts from a summary of this one and links back.'}</span>
        </div>
      )}
      {writing && (
        <p className="system-text" data-testid="context-working" role="status">
          Writing the summary…{' '}
          <button type="button" data-testid="context-cancel" onClick={() => void cancelSummary(conversationId!)}>
            Stop
          </button>
        </p>
      )}
      {error && (
        <p className="field-error" data-testid="context-choice-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
