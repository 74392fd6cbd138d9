import { memo, useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Paperclip, Pencil } from 'lucide-react';
import { turnText, type AttachmentBlock, type Turn } from '../../../shared/turn';
import { editAndResend } from '../../store/branch-actions';
import { useRunActive } from '../../store/use-run-active';
import { Attachments } from './Attachments';
import { focusComposer } from '../composer/focus-composer';
import { pastesAsText } from '../composer/Composer';
import { attachmentNames, namePastedImages } from '../composer/pasted-names';
import { useStore } from '../../store';
import { useEditAttachments } from './use-edit-attachments';
import { AttachButton } from '../composer/AttachButton';
import { useEditRefusal } from './use-edit-checks';
import { BranchSwitcher } from './BranchSwitcher';
import { useFocusBack } from '../../hooks/use-focus-back';
import { TOUCH } from '../../hooks/use-media';
import { MarkedText } from '../MarkedText';
import { useRoom } from '../../store/context-room';
import { EditRoomPanel } from './EditRoomPanel';
import { DiscardEditQuestion } from './DiscardEditQuestion';
import { editFilesMissing, keepEditDraft, readEditDraft } from '../../store/edit-drafts';
import { lostFilesMessage } from './lost-files';
import { useReportEditInSight } from './use-edit-in-sight';

/** The user's message as they wrote it (plain text), with edit-and-resend making a new branch. */
export const UserTurn = memo(function UserTurn({ turn }: { turn: Turn }) {
  const text = turnText(turn);
  const attachments = turn.blocks.filter((b): b is AttachmentBlock => b.type === 'attachment');
  // A changed edit kept across a reload (edit-drafts.ts) opens again as it was left, without taking the focus.
  const [restored] = useState(() => readEditDraft(turn.id));
  const [draft, setDraft] = useState<string | null>(restored?.text ?? null);
  // The places of the message's files that go with the edit: each can be left out (attachments audit #7).
  const [keep, setKeep] = useState<number[]>(() => restored?.keep.filter((i) => i < attachments.length) ?? []);
  const [focusOnOpen, setFocusOnOpen] = useState(restored === null);
  const box = useRef<HTMLTextAreaElement>(null);
  // The message box's note on an unsent edit points to it only while it is out of sight.
  useReportEditInSight(box, turn.id, draft !== null);
  // The edit form's Make room panel, offered while the edit is over the window.
  const [roomOpen, setRoomOpen] = useState(false);
  const busy = useRunActive();
  const keptBlocks = keep.flatMap((i) => attachments[i] ?? []);
  // Files added in the edit, after those kept: one forgotten when the message was sent need not mean starting over.
  const adding = useEditAttachments(keptBlocks, restored?.added);
  // Files added in an edit kept across a reload that main no longer has: the edit comes back without them and says so,
  // until one of that name is attached again (the words stayed after the user had done what they asked).
  const [lost, setLost] = useState<AttachmentBlock[]>([]);
  const stillLost = lost.filter((b) => !adding.added.some((a) => a.name === b.name));
  const { drop } = adding;
  useEffect(() => {
    if (!restored || restored.added.length === 0) return;
    let live = true;
    void editFilesMissing(turn.id, restored.added).then((missing) => {
      if (!live || missing.length === 0) return;
      drop(missing);
      setLost(missing);
    });
    return () => {
      live = false;
    };
  }, [turn.id, restored, drop]);
  // A chip's remove button goes with it: the focus goes back to the edit box.
  const leaveOut = (at: number) => {
    if (at < keptBlocks.length) setKeep((k) => k.filter((_, j) => j !== at));
    else adding.remove(at - keptBlocks.length);
    box.current?.focus();
  };

  // The edit box had the focus and goes away: Cancel or Escape give it back to Edit, a resend to the message box
  // (where Escape stops the new answer; this turn itself is replaced by the new version).
  const { target: editButton, armFocusBack } = useFocusBack<HTMLButtonElement>(draft !== null);
  // A choice under Make room writes a summary, then sends the edit as it stood when chosen: until it is done (or
  // stopped), the edit is kept as it is and the form stays.
  const summarizing = useRoom((s) => draft !== null && s.working !== null && s.working === turn.conversationId);
  // Escape or Cancel on a changed edit asks first, as Settings does: a stray key threw the typing away without a word.
  const [asking, setAsking] = useState(false);
  const changed = draft !== null && (draft !== text || keep.length !== attachments.length || adding.added.length > 0);
  // Kept until sent or discarded; an unmount (a reload, the list scrolled) leaves it kept.
  useEffect(
    () => keepEditDraft(turn.id, changed && draft !== null ? { text: draft, keep, added: adding.added, conversationId: turn.conversationId } : null),
    [turn.id, turn.conversationId, changed, draft, keep, adding.added],
  );
  // Files stored for the edit and not sent are dropped with it, as the composer drops a removed one.
  const discard = () => {
    // Not while a choice writes a summary for this edit: it sends the edit when done (its Stop keeps the edit).
    if (summarizing) return;
    armFocusBack();
    setAsking(false);
    setDraft(null);
    setRoomOpen(false);
    setLost([]);
    adding.clear();
  };
  const cancel = () => {
    if (summarizing) return;
    if (changed) setAsking(true);
    else discard();
  };
  const keepEditing = () => {
    setAsking(false);
    box.current?.focus();
  };
  // A choice under Make room sent the edit: the form closes, as after Send.
  const sentByChoice = () => {
    keepEditDraft(turn.id, null);
    focusComposer();
    setAsking(false);
    setDraft(null);
    setRoomOpen(false);
    adding.clear();
  };
  // The message box's checks, in its words (send-checks.ts): a file still being read or unreadable, an image for a
  // model that cannot see, a message over the window, nothing left. Until one passes, Send waits and says why;
  // the edit keeps its text and files.
  const { refusal, overWindow, countFirst } = useEditRefusal(turn, draft, [...keptBlocks, ...adding.added]);
  // While the edited text is counted before Send, a second Enter sends nothing more.
  const countingBeforeSend = useRef(false);
  const spec = draft === null ? null : { turnId: turn.id, text: draft, ...(keep.length === attachments.length ? {} : { keepAttachments: keep }), ...(adding.added.length > 0 ? { attachments: adding.added } : {}) };
  const blockedBy = adding.busy ? 'Attaching…' : refusal;
  const sendable = draft !== null && blockedBy === null;
  const startEditing = () => {
    setDraft(text);
    setFocusOnOpen(true);
    setAsking(false);
    setKeep(attachments.map((_, i) => i));
    setRoomOpen(false);
    setLost([]);
    adding.clear();
  };
  const submit = async () => {
    if (draft === null || !sendable || countingBeforeSend.current) return;
    if (countFirst) {
      countingBeforeSend.current = true;
      const fits = await countFirst().finally(() => (countingBeforeSend.current = false));
      if (!fits) return;
    }
    if (await editAndResend(turn, draft, { ...(keep.length === attachments.length ? {} : { keep }), added: adding.added })) {
      // Forgotten here, not by the effect: the new version replaces this turn on screen, which unmounts it before the
      // effect could run, and the original (one click away, ‹) reopened with the sent edit in its form.
      keepEditDraft(turn.id, null);
      focusComposer();
      setAsking(false);
      setDraft(null);
      setLost([]);
      adding.clear();
    }
  };
  // Files dropped (adding.dropZone) or pasted on the edit form go with the edit, not to the message box.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    if (files.length === 0 || pastesAsText(e.clipboardData, files)) return;
    e.preventDefault();
    // A screenshot comes as "image.png": "Pasted image N" after those of this chat and this edit, as in the message box.
    void adding.add(namePastedImages(files, attachmentNames(useStore.getState().turns, adding.added)));
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // As in the message box: on a touch screen the return key adds a line; Send or Ctrl+Enter (Cmd+Enter) sends.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing && (e.ctrlKey || e.metaKey || !window.matchMedia(TOUCH).matches)) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape' && !e.nativeEvent.isComposing) {
      // Not while an input method composes: its Escape cancels the conversion, and the edit would be thrown away.
      e.stopPropagation();
      cancel();
    }
  };

  return (
    <>
      {draft === null ? (
        <div className="user-bubble">
          <Attachments blocks={attachments} />
          {text !== '' && (
            <div className="user-text" data-testid="user-text" dir="auto">
              <MarkedText text={text} />
            </div>
          )}
        </div>
      ) : (
        <div className={adding.dropping ? 'edit-box dropping' : 'edit-box'} data-testid="turn-edit-form" {...adding.dropZone}>
          {adding.dropping && (
            <div className="edit-drop-hint" aria-hidden>
              <Paperclip className="icon" />
              Drop files to attach them to this edit
            </div>
          )}
          <Attachments blocks={[...keptBlocks, ...adding.added]} {...(summarizing ? {} : { onRemove: leaveOut })} />
          <textarea ref={box} data-testid="turn-edit-input" aria-label="Edit message" value={draft} rows={3} readOnly={summarizing} autoFocus={focusOnOpen} onChange={(e) => setDraft(e.target.value)} onKeyDown={onKey} onPaste={onPaste} />
          <div className="edit-actions">
            <AttachButton title="Attach files to this message" label="Attach files to this message" testId="turn-edit-attach-input" onFiles={(files) => void adding.add(files)} />
            {adding.busy && (
              <span className="edit-status" role="status">
                Attaching…
              </span>
            )}
            <span className="spacer" />
            {/* As under the message box: the ways on when the edit does not fit the window. */}
            {overWindow && !busy && (
              <button type="button" className="small" data-testid="turn-edit-make-room" aria-expanded={roomOpen} onClick={() => setRoomOpen(!roomOpen)}>
                Make room…
              </button>
            )}
            {asking ? (
              <DiscardEditQuestion onKeep={keepEditing} onDiscard={discard} />
            ) : (
              <>
                <button type="button" data-testid="turn-edit-cancel" disabled={summarizing} onClick={cancel}>
                  Cancel
                </button>
                <button type="button" className="primary" data-testid="turn-edit-send" disabled={busy || !sendable} title={blockedBy ?? 'Send the edited message'} onClick={() => void submit()}>
                  Send
                </button>
              </>
            )}
          </div>
          {stillLost.length > 0 && (
            <p className="edit-reason" data-testid="turn-edit-lost" role="status">
              {lostFilesMessage(stillLost)}
            </p>
          )}
          {/* As under the message box: what stands in the way, and what to do (an empty edit needs no words). */}
          {refusal !== null && refusal !== 'Type a message.' && (
            <p className="edit-reason" data-testid="turn-edit-reason" role="status">
              {refusal}
            </p>
          )}
          {overWindow && roomOpen && !busy && spec && <EditRoomPanel turn={turn} spec={spec} onSent={sentByChoice} />}
        </div>
      )}
      <div className="turn-footer">
        <BranchSwitcher turn={turn} />
        {draft === null && (
          <span className="actions">
            <button type="button" ref={editButton} className="icon-btn small" data-testid="turn-edit" aria-label="Edit and resend" title="Edit and resend" disabled={busy} onClick={startEditing}>
              <Pencil className="icon" aria-hidden />
            </button>
          </span>
        )}
      </div>
    </>
  );
});
