import { useEffect, useRef, type KeyboardEvent } from 'react';

/**
 * Asked when Escape or Cancel would throw away a changed edit of a sent message, in the place of Cancel and Send,
 * as Settings asks before it throws a half-typed change away ("Keep editing" / "Discard"). The question takes the
 * focus, so Enter or Space answers it from the keyboard; Escape on it is Keep editing, so a second stray Escape
 * loses nothing either.
 */
export function DiscardEditQuestion({ onKeep, onDiscard }: { onKeep: () => void; onDiscard: () => void }) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  const onKeyDown = (e: KeyboardEvent<HTMLSpanElement>) => {
    if (e.key !== 'Escape' || e.nativeEvent.isComposing) return;
    // Not on to the chat's own Escape (which stops an answer).
    e.stopPropagation();
    onKeep();
  };
  return (
    <span className="edit-unsaved" role="alertdialog" aria-label="Discard changes" data-testid="turn-edit-discard-question" onKeyDown={onKeyDown}>
      <span>Discard your changes to this message?</span>
      <button type="button" ref={keep} data-testid="turn-edit-keep" onClick={onKeep}>
        Keep editing
      </button>
      <button type="button" className="danger" data-testid="turn-edit-discard" onClick={onDiscard}>
        Discard
      </button>
    </span>
  );
}
