import { useState } from 'react';
import { focusTurn, useStore } from '../../store';
import { keptEditIds, useEditDraftsVersion } from '../../store/edit-drafts';
import { useEditsInSight } from '../../store/edits-in-sight';

/** How many frames the list may take to scroll a message it had not mounted into place before giving up. */
const MOUNT_FRAMES = 60;

const editBox = (turnId: string) => document.querySelector<HTMLTextAreaElement>(`[data-turn-id="${CSS.escape(turnId)}"] [data-testid="turn-edit-input"]`);

/**
 * An edit of a sent message kept across a reload (edit-drafts.ts) opens again in its message, without the focus: in
 * a long chat, which opens at its end, that message may be far above what is shown, and nothing said the edit was
 * there. This note under the message box says so, and Show scrolls the list to the message (it is virtualized: the
 * message may not be mounted) and puts the focus in its edit. It shows only while the edit is out of sight (it said
 * so of an edit on screen too): scrolled to, by Show or by the user, it goes, and it comes back once the edit is
 * scrolled away again; sent or discarded, it goes for good. Only for edits kept as the chat opened: not for one the
 * user is typing now.
 */
export function KeptEditNote() {
  const turns = useStore((s) => s.turns);
  const activeId = useStore((s) => s.activeId);
  // The edits kept as the chat opened: one being typed now is where the user is, and needs no note.
  const [opened, setOpened] = useState(() => ({ chat: activeId, ids: keptEditIds() }));
  if (opened.chat !== activeId) setOpened({ chat: activeId, ids: keptEditIds() });
  // Read again whenever an edit is kept or forgotten (sent, discarded, back as the message was).
  useEditDraftsVersion();
  const inSight = useEditsInSight();
  const now = opened.ids.size === 0 ? opened.ids : keptEditIds();
  const kept = now.size === 0 ? undefined : turns.find((t) => t.role === 'user' && opened.ids.has(t.id) && now.has(t.id) && inSight[t.id] === undefined);
  if (!kept) return null;
  const show = () => {
    focusTurn(kept.id);
    let frames = 0;
    const tick = () => {
      const box = editBox(kept.id);
      if (box) box.focus();
      else if (++frames < MOUNT_FRAMES) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  return (
    <span className="composer-note" data-testid="kept-edit-note" role="status">
      You have an unsent edit of an earlier message.
      <button type="button" className="link-button" data-testid="kept-edit-show" onClick={show}>
        Show
      </button>
    </span>
  );
}
