import { useEffect, useRef, useState } from 'react';
import { finalAssistantText } from '../../../shared/assistant-text';
import { useStore } from '../../store';
import { announcement } from './announcement';

/**
 * What a screen reader hears of an answer: once, when it has finished (the chat itself is not a live region: that
 * would read every token as it streams); the whole of a short one, the beginning of a long one (./announcement.ts).
 * Answers loaded from disk are not announced.
 */
export function Announcer() {
  const turns = useStore((s) => s.turns);
  const [message, setMessage] = useState('');
  const streaming = useRef(new Set<string>());
  useEffect(() => {
    for (const t of turns) {
      if (t.role !== 'assistant') continue;
      if (t.status === 'streaming') streaming.current.add(t.id);
      else if (streaming.current.delete(t.id)) {
        setMessage(announcement(finalAssistantText([t]), t.status, t.model));
      }
    }
  }, [turns]);
  return (
    <div className="sr-only" role="status" aria-live="polite" data-testid="answer-announcer">
      {message}
    </div>
  );
}
