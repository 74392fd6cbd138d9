import { useEffect } from 'react';
import { addInputs, estimateTokens, fitsWindow, measureTurns } from '../../../shared/context-estimate';
import { aliasOfRef, refLabel } from '../../../shared/model-ref';
import type { AttachmentBlock, Turn } from '../../../shared/turn';
import { useStore } from '../../store';
import { costFor, currentKey, requestCost, useAttachmentCosts, type CostState } from '../../store/attachment-costs';
import type { AppState } from '../../store/app-state';
import { useRoom, type DraftCount } from '../../store/context-room';
import { useDraftCount } from '../context/use-draft-count';
import { cannotSee, messageRefusal } from '../composer/send-checks';
import { tooLongReason } from '../composer/window-room';

const NONE: never[] = [];
const NO_COSTS: Record<string, CostState> = {};

/**
 * Why the edit of `turn` (its text and files as they now stand) cannot be sent, in the message box's words
 * (send-checks.ts); null when it can. The edited message replaces `turn`: what it is measured against is the chat
 * before it, with what main counted besides the turns (the system prompt, the tools), not the turns after it.
 */
export function useEditRefusal(turn: Turn, text: string | null, items: readonly AttachmentBlock[]): EditChecks {
  const editing = text !== null;
  // Read only while this message is edited: every sent message has the hook, and the branch changes with each
  // streamed part (a message not being edited re-rendered on each one).
  const selected = useStore((s) => (editing ? s.selectedModel : null));
  const models = useStore((s) => (editing ? s.models : NONE));
  const aliases = useStore((s) => (editing ? s.aliases : NONE));
  const turns = useStore((s) => (editing ? s.turns : NONE));
  const activeId = useStore((s) => (editing ? s.activeId : null));
  const contextChoice = useStore((s) => (editing ? s.contextChoice : null));
  const activeConnection = useStore((s) => (editing ? s.settings?.activeConnectionId : undefined));
  const costs = useAttachmentCosts((s) => (editing ? s.costs : NO_COSTS));
  const measure = useRoom((s) => (editing ? s.measure : null));
  // What main has read of each file, for the model the edit goes to (the chips ask too; a model changed meanwhile asks again).
  const ids = items.map((b) => `${b.id}|${b.pages ? `${b.pages.from}-${b.pages.to}` : ''}`).join(',');
  useEffect(() => {
    if (editing) for (const b of items) requestCost(b);
  }, [editing, ids, selected, activeConnection]);
  // Where main counts the chat's request (llama-server, the built-in engine), it counts the edited text too once
  // typing pauses, as the message box's draft (use-draft-count.ts): the chat before the message and the text that
  // replaces it. Scaled by a ratio learned from other text, a CJK or code edit was said to fit and then refused.
  const measureKey = useRoom((s) => (editing && s.measure?.base?.conversationId === activeId && s.measure.value.counted !== 'estimate' ? s.measure.key : null));
  const counting = measureKey !== null && text !== null && text.trim() !== '';
  const { counted, countNow } = useDraftCount(counting ? `${measureKey}|${turn.id}` : null, text ?? '', counting, turn.id);
  if (text === null) return NO_REFUSAL;
  const c: EditContext = { selected, models, aliases, turns, activeId, contextChoice, costs, measure, ...(counted ? { counted } : {}) };
  const checks = editChecks(turn, text, items, c);
  // Sent before the count came (Enter at once after typing): counted first, and not sent where it does not fit;
  // the form then says so, as it would have a moment later.
  const countFirst = async (): Promise<boolean> => {
    if (!counting || counted) return true;
    const count = await countNow();
    return count === undefined || editChecks(turn, text, items, { ...c, counted: count }).refusal === null;
  };
  return { ...checks, countFirst };
}

/** Why the edit cannot be sent (null: it can), and whether that is the window: then the form offers Make room. */
export interface EditChecks {
  refusal: string | null;
  overWindow: boolean;
  /** Before Send: counts the edited text first where main counts it and has not yet; false where it does not fit. */
  countFirst?: () => Promise<boolean>;
}

const NO_REFUSAL: EditChecks = { refusal: null, overWindow: false };

/** What the edit is checked against: the store as it stands (the chosen model, the branch, main's window and measure). */
export interface EditContext {
  selected: string | null;
  models: readonly { name: string; capabilities?: string[] | undefined }[];
  aliases: AppState['aliases'];
  turns: readonly Turn[];
  activeId: string | null;
  contextChoice: AppState['contextChoice'];
  costs: Record<string, CostState>;
  measure: { value: { parts?: { tools?: number; system?: number } | undefined }; base?: { conversationId: string | null } | undefined } | null;
  /** Main's count of this edit's text (use-draft-count.ts), and of the chat before the edited message. */
  counted?: Pick<DraftCount, 'text' | 'tokens' | 'base'>;
}

/** Why `text` and `items`, sent as the edit of `turn`, would be refused; null when they can go (useEditRefusal). */
export function editRefusal(turn: Pick<Turn, 'id'>, text: string, items: readonly AttachmentBlock[], c: EditContext): string | null {
  return editChecks(turn, text, items, c).refusal;
}

/** editRefusal, and whether what refuses it is the window (the branch before the edit and the edit do not fit). */
export function editChecks(turn: Pick<Turn, 'id'>, text: string, items: readonly AttachmentBlock[], c: EditContext): EditChecks {
  const { selected, models, aliases, turns, activeId, contextChoice, costs, measure, counted } = c;
  const alias = aliasOfRef(selected, aliases);
  const model = models.find((m) => m.name === selected) ?? models.find((m) => m.name === alias?.model);
  const modelName = selected === null ? null : refLabel(selected, aliases);
  const stateOf = (b: AttachmentBlock) => {
    const key = currentKey(b);
    return key ? costs[key] : undefined;
  };
  const ratio = contextChoice?.estimateRatio ?? 1;
  const cost = (b: AttachmentBlock) => costFor(costs, b, ratio);
  const at = turns.findIndex((t) => t.id === turn.id);
  const before = at >= 0 ? turns.slice(0, at) : turns;
  const empty = text.trim() === '' && items.length === 0;
  const pending = empty ? measureTurns([]) : measureTurns([{ blocks: [{ type: 'text', text }, ...items] }], cost);
  // The system prompt and the tools as main last counted them for this chat.
  const parts = measure?.base?.conversationId === activeId ? measure?.value.parts : undefined;
  const besides = (parts?.tools ?? 0) + (parts?.system ?? 0);
  // Where main counted this text, the request as counted (the chat before the message, the text as its message) and
  // the files as estimated here; else all of it estimated, the system prompt and the tools as main counted them.
  const estimatedAll = Math.ceil(estimateTokens(pending) * ratio);
  const estimatedText = empty ? 0 : Math.min(estimatedAll, Math.ceil(estimateTokens(measureTurns([{ blocks: [{ type: 'text', text }] }])) * ratio));
  const estimate =
    counted && counted.text === text
      ? counted.base + counted.tokens + (estimatedAll - estimatedText)
      : besides + Math.ceil(estimateTokens(addInputs(measureTurns(before, cost), pending)) * ratio);
  // Until main has said which window the request carries, nothing is refused on a guess (as in the message box).
  const window = contextChoice?.contextWindow;
  const overReason =
    contextChoice === null || fitsWindow(estimate, window)
      ? null
      : tooLongReason(
          { window: window ?? 0, estimate, ratio, items: items.map((b) => ({ block: b, tokens: cost(b) ?? 0 })), message: counted && counted.text === text ? counted.tokens : estimatedText, tools: parts?.tools },
          {
            modelName,
            empty,
            // The form's Make room… makes room in the chat before the edited message; its plan is the panel's own.
            chat: { plan: null },
            inspectionOf: (b) => {
              const st = stateOf(b);
              return st?.status === 'done' ? st.inspection : undefined;
            },
          },
        );
  const refusal = messageRefusal({ text, items, stateOf, modelName, noVision: cannotSee(model), overReason });
  return { refusal, overWindow: refusal !== null && refusal === overReason };
}
