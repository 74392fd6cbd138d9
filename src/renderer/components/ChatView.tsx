import { useEffect, useRef } from 'react';
import { useStore } from '../store';
import { TurnView } from './TurnView';

export function ChatView() {
  const turns = useStore((s) => s.turns);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [turns]);
  if (turns.length === 0) {
    return (
      <section className="chat empty" data-testid="chat">
        <p>Ask your local model anything.</p>
      </section>
    );
  }
  return (
    <section className="chat" data-testid="chat" aria-live="polite">
      {turns.map((t) => (
        <TurnView key={t.id} turn={t} />
      ))}
      <div ref={end} />
    </section>
  );
}
