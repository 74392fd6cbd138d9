import { useEffect, useRef, useState } from 'react';
import { finalAssistantText } from '../../../shared/assistant-text';
import { loadSpeech } from '../../markdown/lazy-render';
import { toolApprovalLead, toolApprovalMeta } from '../../../shared/system-turns';
import { useStore } from '../../store';
import { stopLabel } from '../turn/AssistantTurn';
import { blankAnswerLine } from '../turn/blank-answer';
import { announcement, type ToSpeech } from './announcement';

/**
 * What a screen reader hears of an answer: once, when it has finished (the chat itself is not a live region: that
 * would read every token as it streams); the whole of a short one, the beginning of a long one, as speech rather
 * than markdown source (./announcement.ts). Answers loaded from disk are not announced. A tool call that waits for
 * the user's approval is said once as its card appears, under an answer that streamed here: the card does not take the
 * focus (it would take it from a user typing), and the note under the message box was all that told of it.
 */
export function Announcer() {
  const turns = useStore((s) => s.turns);
  const [message, setMessage] = useState('');
  const streaming = useRef(new Set<string>());
  /** Which finished answer is being announced: an earlier one whose speech arrives later does not overwrite it. */
  const latest = useRef(0);
  /** Answers seen streaming here (their approval cards are new), and the approval cards already said. */
  const streamed = useRef(new Set<string>());
  const asked = useRef(new Set<string>());
  useEffect(() => {
    for (const t of turns) {
      if (t.source === 'tool-approval' && t.meta.state === 'pending' && !asked.current.has(t.id)) {
        const m = toolApprovalMeta(t.meta);
        if (!m?.turnId || !streamed.current.has(m.turnId)) continue;
        asked.current.add(t.id);
        // After the tool step's own (empty) announcement, which a later ticket drops if it is still on its way.
        ++latest.current;
        setMessage(`Waiting for your approval: ${toolApprovalLead(m)}. Review, under the message box, takes you to it.`);
        continue;
      }
      if (t.role !== 'assistant') continue;
      if (t.status === 'streaming') {
        streaming.current.add(t.id);
        streamed.current.add(t.id);
      }
      else if (streaming.current.delete(t.id)) {
        const ticket = ++latest.current;
        // How it ended early, in the card's words: said here, once (the card itself is not an alert, which would be
        // read out again each time its conversation is opened or it scrolls back into view).
        const label = stopLabel(t);
        // A blank answer says so, as its card does (builtin audit #6: it was announced as nothing at all).
        const problem = label ? `${label}.${t.error ? ` ${t.error}` : ''}` : (blankAnswerLine(t) ?? undefined);
        const say = (toSpeech?: ToSpeech) => {
          if (ticket === latest.current) setMessage(announcement(finalAssistantText([t]), t.status, t.model, toSpeech, problem));
        };
        // The markdown chunk is loaded by now (the answer was drawn with it); if it cannot load, the source is read.
        // A task of its own, after the answer's last frame: parsing a long answer's beginning for speech takes a
        // few milliseconds that the frame finishing the answer should not carry.
        setTimeout(() => loadSpeech().then(say, () => say()), 0);
      }
    }
  }, [turns]);
  return (
    <div className="sr-only" role="status" aria-live="polite" data-testid="answer-announcer">
      {message}
    </div>
  );
}
