import { useMemo } from 'react';
import { messages, tokensText, waitingForRoom, type CompactionMeta, type ContinuedMeta, type DroppedMeta } from '../../../shared/context-edits';
import type { ContextRefusedMeta, RoomWay } from '../../../shared/system-turns';
import type { Turn } from '../../../shared/turn';
import { saveConversationSettings } from '../../store/conversation-settings';
import { fail, openConversation, useStore } from '../../store';
import { showTurn } from '../../store/open-conversation';
import { applyChoice, measureKey } from '../../store/context-room';
import { partRows } from './part-words';
import { RoomChoices } from './RoomChoices';
import { useRoomPlan } from './use-room-plan';
import { MarkedText } from '../MarkedText';

/**
 * Links to turns of the open branch by id; a turn not on it (another branch) is named, not linked. A long chat's
 * older turns may not be held yet (open-conversation.ts): those are linked by place, and read when followed.
 */
function TurnLinks({ ids, testId }: { ids: string[]; testId: string }) {
  const onBranch = useStore((s) => s.turns);
  const older = useStore((s) => s.olderTurns !== null && s.olderTurns === s.activeId);
  const byId = useMemo(() => new Map(onBranch.map((t, i) => [t.id, { turn: t, index: i }])), [onBranch]);
  return (
    <ul className="system-list turn-links" data-testid={testId}>
      {ids.map((id, n) => {
        const found = byId.get(id);
        const label = found ? `${found.turn.role === 'user' ? 'You' : found.turn.role === 'assistant' ? 'Assistant' : 'Tool'}: ${preview(found.turn)}` : `message ${n + 1}`;
        return (
          <li key={id}>
            {found || older ? (
              <button type="button" className="link-button" data-turn-id={id} onClick={() => void showTurn(id)}>
                {label}
              </button>
            ) : (
              <span data-turn-id={id}>{label}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function preview(turn: Turn): string {
  const text = turn.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'attachment' ? `[${b.name}]` : b.type === 'tool_call' ? `[${b.name}]` : b.type === 'tool_result' ? `[${b.name} result]` : '')).join(' ').trim().replace(/\s+/g, ' ');
  return text.length > 70 ? `${text.slice(0, 67)}...` : text || '(empty)';
}

/** A summary sent in place of older turns: who wrote it, the numbers, the summary itself, the turns it stands for. */
export function CompactionCard({ meta }: { meta: CompactionMeta }) {
  return (
    <>
      <p className="system-text" data-testid="compaction-numbers">
        {meta.auto ? `Made on its own at ${Math.round(meta.auto.threshold * 100)}% of the window. ` : ''}
        Written by {meta.model}. The request went from {tokensText(meta.tokensBefore, meta.counted)} to {tokensText(meta.tokensAfter, meta.counted)}; the{' '}
        {messages(meta.covered.length)} it stands for stay in {meta.from ? 'the earlier chat' : 'this chat'}.
      </p>
      {meta.from && (
        <p className="system-text">
          Continues{' '}
          <button type="button" className="link-button" data-testid="compaction-from" data-conversation-id={meta.from.conversationId} onClick={() => void openConversation(meta.from!.conversationId)}>
            “<MarkedText text={meta.from.title} />”
          </button>
        </p>
      )}
      <details className="compaction-summary" data-testid="compaction-summary">
        <summary>The summary the model reads</summary>
        <p className="system-text">{meta.summary}</p>
      </details>
      {!meta.from && meta.covered.length > 0 && (
        <details className="compaction-covered">
          <summary>The {messages(meta.covered.length)} it stands for</summary>
          <TurnLinks ids={meta.covered} testId="compaction-covered" />
        </details>
      )}
    </>
  );
}

export function DroppedCard({ meta, text }: { meta: DroppedMeta; text: string }) {
  return (
    <>
      <p className="system-text">{text}</p>
      {meta.turns.length > 0 && (
        <details className="compaction-covered">
          <summary>The {messages(meta.count)} left out</summary>
          <TurnLinks ids={meta.turns} testId="dropped-turns" />
        </details>
      )}
    </>
  );
}

export function ContinuedCard({ meta }: { meta: ContinuedMeta }) {
  return (
    <p className="system-text">
      This chat goes on in{' '}
      <button type="button" className="link-button" data-testid="continued-open" data-conversation-id={meta.conversationId} onClick={() => void openConversation(meta.conversationId)}>
        “<MarkedText text={meta.title} />”
      </button>
      , which starts from a summary of this one.
    </p>
  );
}

/**
 * The refusal's choices, on the last refusal of the branch while its message waits (nothing answered since). The
 * plan is asked again when the branch's tip changes.
 */
export function RefusalChoices({ turn }: { turn: Turn }) {
  const open = useStore((s) => {
    const last = s.turns.findLastIndex((t) => t.source === 'context-refused');
    return last >= 0 && s.turns[last]!.id === turn.id && waitingForRoom(s.turns) !== undefined;
  });
  const key = useStore((s) => measureKey(s.activeId, s.selectedModel, s.turns, s.settings?.activeConnectionId) ?? '');
  const { state, keepFrom, setKeepFrom } = useRoomPlan(turn.conversationId, open, key);
  if (!open) return null;
  return <RoomChoices conversationId={turn.conversationId} state={state} keepFrom={keepFrom} onKeepFrom={setKeepFrom} />;
}

/** What takes the room in a refused request, part by part, with its tokens (context audit #1). */
export function RefusalParts({ meta }: { meta: ContextRefusedMeta }) {
  const rows = partRows(meta.parts ?? {});
  if (rows.length === 0) return null;
  return (
    <>
      <p className="system-label">What takes the room</p>
      <ul className="system-list" data-testid="refusal-parts">
        {rows.map(({ key, tokens, text }) => (
          <li key={key} data-part={key} data-tokens={tokens}>
            {text}
          </li>
        ))}
      </ul>
    </>
  );
}

const WAY_WORDS: Record<RoomWay, string> = {
  'tools-off': 'Turn tools off for this chat: their definitions go with every message.',
  'remove-files': 'Remove the message’s files, or leave one out of what is sent (below).',
  'later-point': 'Start from a later point: summarize the older turns or leave them out (below).',
  'larger-window': 'Use a larger context window.',
};

/**
 * The ways of making room recorded with the refusal (context audit #4); where the tools' definitions take much of
 * it, Turn tools off is right here: the chat's tools go off and, while the message waits, it is sent again.
 */
export function RefusalWays({ meta, turn }: { meta: ContextRefusedMeta; turn: Turn }) {
  const open = useStore((s) => {
    const last = s.turns.findLastIndex((t) => t.source === 'context-refused');
    return last >= 0 && s.turns[last]!.id === turn.id && waitingForRoom(s.turns) !== undefined && s.activeId === turn.conversationId;
  });
  const toolsOn = useStore((s) => s.conversationSettings.tools);
  const ways = meta.ways ?? [];
  if (ways.length === 0) return null;
  return (
    <>
      <p className="system-label">Ways to make room</p>
      <ul className="system-list" data-testid="refusal-ways">
        {ways.map((way) => (
          <li key={way} data-way={way}>
            {WAY_WORDS[way]}
            {way === 'tools-off' && open && toolsOn && (
              <>
                {' '}
                <button type="button" data-testid="refusal-tools-off" onClick={() => void turnToolsOff(turn.conversationId)}>
                  Turn tools off
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The chat's tools off (its settings, as the popover saves them), then the waiting message sent again. */
async function turnToolsOff(conversationId: string): Promise<void> {
  const settings = useStore.getState().conversationSettings;
  if (!(await saveConversationSettings(conversationId, { ...settings, tools: false }))) return;
  await applyChoice(conversationId, { kind: 'answer-waiting' }).catch((err: unknown) => fail(err, () => void turnToolsOff(conversationId)));
}
