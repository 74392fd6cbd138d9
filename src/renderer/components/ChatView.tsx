import { useMemo, useRef } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { useStore } from '../store';
import { collectAnswers } from './turn/tool-answers';
import { TurnView } from './turn/TurnView';

/**
 * The open branch as a virtualized list: only turns near the viewport are mounted, so a chat of thousands of
 * turns scrolls like a short one. It follows the bottom while the user is there, and leaves them be when they
 * scrolled up to read.
 */
export function ChatView() {
  const turns = useStore((s) => s.turns);
  const activeId = useStore((s) => s.activeId);
  const list = useRef<VirtuosoHandle>(null);
  const { answers, shown } = useMemo(() => collectAnswers(turns), [turns]);

  if (shown.length === 0) {
    return (
      <section className="chat empty" data-testid="chat">
        <div className="empty-hint">
          <h1>Firebrand</h1>
          <p>Ask your local model anything.</p>
          <p className="shortcuts">
            <kbd>Ctrl</kbd>+<kbd>N</kbd> new chat · <kbd>Ctrl</kbd>+<kbd>K</kbd> search · <kbd>/</kbd> write · <kbd>Esc</kbd> stop
          </p>
        </div>
      </section>
    );
  }
  return (
    <section className="chat" data-testid="chat" aria-live="polite">
      <Virtuoso
        key={activeId ?? 'new'}
        ref={list}
        className="turn-list"
        data={shown}
        computeItemKey={(_i, t) => t.id}
        initialTopMostItemIndex={{ index: 'LAST', align: 'end' }}
        followOutput={(atBottom) => (atBottom ? 'auto' : false)}
        atBottomThreshold={80}
        increaseViewportBy={{ top: 600, bottom: 600 }}
        itemContent={(_i, turn) => (
          <div className="turn-row">
            <TurnView turn={turn} answers={answers} />
          </div>
        )}
        components={{ Footer: () => <div className="turn-list-end" /> }}
      />
    </section>
  );
}
