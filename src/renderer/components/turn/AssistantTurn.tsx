import { reasoningPanelMs } from '../../../shared/turn-timing';
import { Fragment, memo, useState } from 'react';
import { Check, Copy, ImageOff, Play, RotateCcw } from 'lucide-react';
import { sendMessage, useStore } from '../../store';
import { useRunActive } from '../../store/use-run-active';
import { useBuiltinLoading, waitingLine, waitingOf } from '../../store/builtin-loading';
import { useRoom } from '../../store/context-room';
import { finalAssistantText } from '../../../shared/assistant-text';
import { CONTINUE_TEXT, type Turn } from '../../../shared/turn';
import { isRefusedAnswer } from '../../../shared/system-turns';
import { answeredAlias, answeredRef } from '../../../shared/model-ref';
import { answerKey, type ToolAnswer, type ToolAnswers } from './tool-answers';
import { regenerate } from '../../store/branch-actions';
import { materializeAlias } from '../../store/models-slice';
import { answerStats, formatStats } from './answer-stats';
import { callsToolsOnly, endedStats, keptLiveFigures, serverCounted } from './live-stats';
import { LiveStats } from './LiveStats';
import { copyText } from '../../copy-text';
import { BranchSwitcher } from './BranchSwitcher';
import { isContinuePoint } from './continue-point';
import { Markdown } from './Markdown';
import { ThinkingBlock } from './ThinkingBlock';
import { blankAnswerLine } from './blank-answer';
import { ToolCallCard } from './ToolCallCard';
import { focusComposer } from '../composer/focus-composer';
import { cannotSee } from '../composer/send-checks';
import { imagesAnswerWentWithout } from '../composer/unseen-images';

/** Stops that ended an answer early, in words; `end_turn` and `tool_use` are normal and say nothing. */
const STOP_LABEL: Record<string, string> = {
  cut: 'Cut off',
  max_tokens: 'Stopped at the token limit',
  context_full: 'Stopped: the context window is full',
  truncated: 'Ended in the middle of a block',
  error: 'Error',
  aborted: 'Stopped',
};

/**
 * `windowFull`: the conversation now fills the model's window. A server that says only "length" (llama-server, whose
 * `-c` the prompt and the answer share) then stopped because the window filled, not at a token limit the user set
 * (context audit #7: "Stopped at the token limit" read as a max-tokens setting).
 */
export function stopLabel(turn: Turn, windowFull = false): string | null {
  if (isRefusedAnswer(turn)) return 'Not sent: the conversation is longer than the context window';
  if (turn.status === 'interrupted') return 'Interrupted: Firebrand closed while this answer was streaming';
  if (turn.status === 'streaming') return null;
  if (turn.stop === 'max_tokens' && windowFull) return STOP_LABEL['context_full'] ?? null;
  if (turn.stop && turn.stop !== 'end_turn' && turn.stop !== 'tool_use') return STOP_LABEL[turn.stop] ?? `Stopped (${turn.stop})`;
  if (turn.status === 'error' || turn.status === 'cut' || turn.status === 'aborted') return STOP_LABEL[turn.status] ?? 'Error';
  return null;
}

/** A redacted_thinking block's stand-in: Anthropic encrypted that reasoning (it is kept, to be sent back). */
const REDACTED_REASONING = 'The provider encrypted this part of the reasoning, so it cannot be shown.';

/** Stops after which the kept text can be continued. */
const CONTINUABLE = new Set(['cut', 'max_tokens', 'context_full', 'aborted', 'interrupted', 'truncated']);

const withAnswer = (answer: ToolAnswer | undefined) => (answer ? { answer } : {});

interface Props {
  turn: Turn;
  /** What this turn's tool calls got back, wherever it was recorded. */
  answers: ToolAnswers;
  /** The answer's first step (answer-runs.ts): Regenerate and the branch switcher act on it. */
  runFirst?: Turn | undefined;
  /** This is the answer's last step: the footer is shown here, once per answer. */
  runLast?: boolean | undefined;
  /** The whole answer's numbers. */
  runStats?: string | undefined;
}

/** The model that wrote an answer, and the model under it when that was an alias. */
function ModelLabel({ turn }: { turn: Turn }) {
  const model = turn.model;
  const alias = useStore((s) => answeredAlias(turn, s.aliases, s.models));
  if (!model) return null;
  return (
    <span className="model-label" data-testid="model-label" data-model={model} title={alias ? `${model}, an alias of ${alias.model}` : model}>
      {/* A span of its own: in the label's flex row bare text is an anonymous item, which no ellipsis reaches. */}
      <span className="model-name">{model}</span>
      {alias && <span className="via">alias of {alias.model}</span>}
    </span>
  );
}

/**
 * A streaming answer's footer. Its place is kept as it will be once the answer ends (the room of Copy and Regenerate
 * too), so the figures going from running to final move nothing. Memoized on what it shows, not on the turn: the turn
 * is new at each frame of text, and the running figures are drawn on their own timer (LiveStats), not per token.
 */
const StreamingFooter = memo(
  function StreamingFooter({ turnId, labelTurn, ttftMs, toolOnly }: { turnId: string; labelTurn: Turn; ttftMs: number | undefined; toolOnly: boolean }) {
    return (
      <div className="turn-footer" data-testid="answer-footer" data-streaming="true">
        <ModelLabel turn={labelTurn} />
        {!toolOnly && <LiveStats turnId={turnId} ttftMs={ttftMs} />}
        <span className="actions actions-reserved" aria-hidden="true" />
      </div>
    );
  },
  (a, b) =>
    a.turnId === b.turnId && a.ttftMs === b.ttftMs && a.toolOnly === b.toolOnly && a.labelTurn.model === b.labelTurn.model && a.labelTurn.meta['aliasId'] === b.labelTurn.meta['aliasId'],
);

/** An answer: its runs in stream order, then its numbers and actions. */
export const AssistantTurn = memo(function AssistantTurn({ turn, answers, runFirst, runLast = true, runStats }: Props) {
  const [copied, setCopied] = useState(false);
  const streaming = turn.status === 'streaming';
  const waitingOn = useBuiltinLoading((s) => waitingOf(turn, s.waiting));
  const isTip = useStore((s) => isContinuePoint(s.turns, turn.id));
  // Only the chat's last answer is the one the window filled under; an older one keeps what its server said.
  const windowFull = useRoom((s) => isTip && s.full === turn.conversationId);
  const problem = stopLabel(turn, windowFull);
  const blank = problem ? null : blankAnswerLine(turn);
  let reasoningOrdinal = 0;
  const savedReasoning = reasoningPanelMs(turn);
  const first = runFirst ?? turn;
  // Ended: the server's figures; where it sent no count (stopped mid-stream), the running ones the answer had.
  const ended = streaming ? '' : (runStats ?? formatStats(answerStats(turn)).join(' · '));
  const stats = streaming ? '' : endedStats(ended, serverCounted(turn), keptLiveFigures(turn), answerStats(first).ttftMs);
  // While it streams: main's first token, the answer's (its first step's), as soon as it comes.
  const liveTtft = streaming && runLast && !callsToolsOnly(turn) ? answerStats(first).ttftMs : undefined;
  const answer = finalAssistantText([turn]);
  const stop = turn.status === 'interrupted' ? 'interrupted' : (turn.stop ?? turn.status);
  // As Edit and the branch arrows: no second answer is started while a run goes on in this chat, streaming or
  // waiting on a tool (turns audit #8).
  const busy = useRunActive();
  const canContinue = !streaming && isTip && CONTINUABLE.has(stop) && answer !== '';
  // Continue sends a message: with the chat already longer than the window it was refused after being added to the
  // chat (real-engines audit D3), so it waits until room is made.
  const full = useRoom((s) => canContinue && s.full === turn.conversationId);
  // An alias made into an Ollama model whose copy is gone: the server says "try pulling it first", which cannot
  // work for a name that only Firebrand knows. Offer to make it again from its base model (issue 17).
  const aliasGone = useStore((s) => {
    const alias = turn.status === 'error' ? answeredAlias(first, s.aliases, s.models) : undefined;
    return alias?.materializedDigest !== null ? alias : undefined;
  });
  // Written by a model that cannot read images, after images in the chat: they went as a note in their place, and the
  // chat still shows them (vision audit). Only the footer's step asks: what main recorded with it as it was sent, so
  // a connection switched since cannot change it; for an answer from before the record, the model list's word.
  const unseen = useStore((s) => {
    if (streaming || !runLast) return 0;
    return imagesAnswerWentWithout(s.turns, turn, () => {
      const name = (first.model ? first : turn).model;
      const alias = answeredAlias(first, s.aliases, s.models);
      const model = s.models.find((m) => m.name === name) ?? s.models.find((m) => m.name === alias?.model);
      return model !== undefined && cannotSee(model);
    });
  });
  const recreate = aliasGone && /not found|try pulling/i.test(turn.error ?? '') ? aliasGone : undefined;

  const copy = () => {
    void copyText(answer).then((ok) => {
      if (!ok) return;
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };

  return (
    <>
      {turn.blocks.map((block, i) => {
        switch (block.type) {
          case 'reasoning':
            return <ThinkingBlock key={i} turnId={turn.id} text={block.redacted !== undefined && block.text === '' ? REDACTED_REASONING : block.text} ordinal={reasoningOrdinal} savedMs={savedReasoning[reasoningOrdinal++]} active={streaming && i === turn.blocks.length - 1} />;
          case 'text':
            return (
              <div key={i} className="answer" data-run="answer">
                <Markdown text={block.text} growing={streaming && i === turn.blocks.length - 1} />
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
      {streaming && turn.blocks.length === 0 &&
        (waitingOn ? (
          <div className="typing loading-model" data-testid="model-loading" data-state={waitingOn.state} role="status">
            {waitingLine(waitingOn)}
          </div>
        ) : (
          <div className="typing" aria-label="Waiting for the first token">…</div>
        ))}
      {blank && (
        <div className="turn-blank" data-testid="answer-blank">
          {blank}
        </div>
      )}
      {problem && (
        // Not role="alert": the announcer says it once, as the answer ends (frame/Announcer.tsx).
        <div className="turn-status" data-testid="turn-error" data-stop={turn.stop ?? turn.status}>
          <strong>{problem}.</strong>{' '}
          {recreate ? `${recreate.name} was made into an Ollama model from ${recreate.model}, and that copy is gone from the server.` : (turn.error ?? '')}
          {recreate && (
            <div className="turn-status-actions">
              <button
                type="button"
                className="small"
                data-testid="alias-recreate"
                onClick={() => void materializeAlias(recreate.id).then((ok) => (ok ? regenerate(first) : undefined))}
              >
                Recreate {recreate.name} from {recreate.model} and try again
              </button>
            </div>
          )}
          {canContinue && (
            <div className="turn-status-actions">
              <button
                type="button"
                className="small"
                data-testid="answer-continue"
                disabled={full}
                aria-describedby={full ? `continue-full-${turn.id}` : undefined}
                title="Ask the model to go on from where this answer stopped"
                onClick={() => {
                  // This button goes as the answer goes on: the message box takes the focus (Escape stops it there).
                  focusComposer();
                  // With no model chosen (the list empty while its server is away), the answer's own model, as
                  // Regenerate does: the request then fails with why, instead of the click doing nothing.
                  const { aliases, models } = useStore.getState();
                  void sendMessage(CONTINUE_TEXT, [], { model: answeredRef(turn, aliases, models) });
                }}
              >
                <Play className="icon" aria-hidden />
                Continue
              </button>
              {full && (
                <span className="turn-status-note" id={`continue-full-${turn.id}`} data-testid="continue-full">
                  The conversation fills the model’s window: make room (below the message box) to go on.
                </span>
              )}
            </div>
          )}
        </div>
      )}
      {streaming && runLast && <StreamingFooter turnId={turn.id} labelTurn={first.model ? first : turn} ttftMs={liveTtft} toolOnly={callsToolsOnly(turn)} />}
      {!streaming && runLast && (
        <div className="turn-footer" data-testid="answer-footer">
          <ModelLabel turn={first.model ? first : turn} />
          <BranchSwitcher turn={first} />
          {unseen > 0 && (
            <span className="unseen-mark" data-testid="answer-unseen-images" title={`This answer was written without ${unseen === 1 ? 'the image' : `the ${unseen} images`} earlier in this chat: its model cannot read images.`}>
              <ImageOff className="icon" aria-hidden />
              {unseen === 1 ? 'without the image' : `without ${unseen} images`}
            </span>
          )}
          {stats !== '' && (
            <span className="stats" data-testid="answer-stats">
              {/* Each figure on one line: on a phone "first token 4" and "ms" went to two (conversations audit D7). The
                  figures come joined, as one string: a run's numbers are a prop of this memoized turn, and a string
                  compares by value where a new array at each store change would draw every answer again. */}
              {stats.split(' · ').map((part, i) => (
                <Fragment key={i}>
                  {i > 0 && ' · '}
                  <span className="stat">{part}</span>
                </Fragment>
              ))}
            </span>
          )}
          <span className="actions">
            {answer !== '' && (
              <button type="button" className="icon-btn small" data-testid="copy-answer" aria-label={copied ? 'Copied' : 'Copy the answer'} title={copied ? 'Copied' : 'Copy the answer'} onClick={copy}>
                {copied ? <Check className="icon" aria-hidden /> : <Copy className="icon" aria-hidden />}
              </button>
            )}
            <button
              type="button"
              className={problem ? 'small retry' : 'icon-btn small'}
              data-testid={problem ? 'turn-retry' : 'regenerate'}
              aria-label={problem ? 'Retry' : 'Regenerate the answer'}
              title={problem ? 'Retry' : 'Regenerate the answer (with the model chosen below)'}
              disabled={busy}
              onClick={() => {
                // This footer goes while the new answer streams, and the focus with it: the message box takes it.
                focusComposer();
                void regenerate(first);
              }}
            >
              <RotateCcw className="icon" aria-hidden />
              {/* On a phone the word is hidden (turns.css): Retry then fits the room the footer kept while it streamed. */}
              {problem ? <span className="retry-word">Retry</span> : null}
            </button>
          </span>
        </div>
      )}
    </>
  );
});
