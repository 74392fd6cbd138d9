import { useEffect, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { ArrowUp, Brain, ImageOff, Paperclip } from 'lucide-react';
import { addInputs, DEFAULT_CONTEXT_WINDOW, estimateTokens, fitsWindow, measureTurns } from '../../../shared/context-estimate';
import type { AttachmentBlock } from '../../../shared/turn';
import { chosenModelThinks, sendMessage, stopTurn, thinkToggleHeld, thinkToggleOffered, useStore } from '../../store';
import { costFor, currentKey, requestCost, useAttachmentCosts } from '../../store/attachment-costs';
import { stoppableTurn } from '../../store/run-state';
import { toolRunningIn, useToolProgress } from '../../store/tool-progress';
import { FileChip, RemovableThumb } from '../turn/Attachments';
import { loadConnectionsOnce, useConnectionsStore } from '../../store/connections-slice';
import { useFileDrop } from './use-file-drop';
import { ContextMeter } from './ContextMeter';
import { KeptEditNote } from './KeptEditNote';
import { PageRangeRow } from './PageRange';
import { useWindowRoom } from './use-window-room';
import { cannotSee, messageRefusal, unreadableFile } from './send-checks';
import { unseenImages, unseenImagesNote } from './unseen-images';
import { pendingApprovalId, reviewApproval } from '../turn/review-approval';
import { LargerWindowOffer } from './LargerWindowOffer';
import { AttachButton } from './AttachButton';
import { applyChoice, measureIdentity, measureStandsFor, refreshMeasure, setRoomOpen, useRoom } from '../../store/context-room';
import { RoomChoices } from '../context/RoomChoices';
import { useDraftCount } from '../context/use-draft-count';
import { ConversationSettingsButton } from './ConversationSettings';
import { ModelPicker } from './ModelPicker';
import { StopButton } from './StopButton';
import { missingModel, noModelsHint } from './picker-groups';
import { loadLibrary, useLibraryStore } from '../../store/library-slice';
import { aliasOfRef, refLabel } from '../../../shared/model-ref';
import { offeredToolsKey, useMcpStore, watchMcpServers } from '../../store/mcp-slice';
import { attachmentKey, useAttachments } from './use-attachments';
import { attachmentNames, namePastedImages } from './pasted-names';
import { draftEdited, draftSending, holdDrafts, takeDraft } from '../../store/drafts';
import { TOUCH, useMediaQuery } from '../../hooks/use-media';

/** Whether the page's first load has given the message box the focus (focusAtLoad): once, not on a later mount. */
let loadFocusDone = false;

/**
 * A first load (a new chat, or the chat it reopens) starts with the focus in the message box, as chat apps do: it
 * started on the page, and about 10 Tabs reached the box. Once per load, and only where nothing has the focus yet: a
 * dialog, or wherever the user already put it, keeps it. The caller leaves out a touch screen, where the on-screen
 * keyboard would come up over the chat. A screen reader starts at the box, "Message", inside the main landmark;
 * its landmarks (the Conversations navigation, main) are still there to move by.
 */
function focusAtLoad(box: HTMLTextAreaElement | null): void {
  if (loadFocusDone) return;
  loadFocusDone = true;
  const active = document.activeElement;
  if (active === null || active === document.body) box?.focus();
}

/** Multiline message box with attachments, model picker, think toggle and context meter. */
export function Composer() {
  // The draft on screen is the open conversation's; each keeps its own as the user moves between them (drafts.ts).
  const [initial] = useState(() => takeDraft(useStore.getState().activeId));
  const [draft, setDraft] = useState(initial.text);
  const attachments = useAttachments(initial.attachments);
  const held = useRef({ text: draft, attachments: attachments.items });
  held.current = { text: draft, attachments: attachments.items };
  const replaceAttachments = attachments.replace;
  useEffect(
    () =>
      holdDrafts({
        take: () => held.current,
        put: (d) => {
          held.current = d;
          setDraft(d.text);
          replaceAttachments(d.attachments);
        },
      }),
    [replaceAttachments],
  );
  // Main keeps the draft as it is edited (drafts.ts), so a quit or a crash does not lose it.
  useEffect(() => draftEdited(), [draft, attachments.items]);
  const dragging = useFileDrop(attachments.add);
  const connections = useConnectionsStore((s) => s.connections);
  const textarea = useRef<HTMLTextAreaElement>(null);
  useEffect(() => loadConnectionsOnce(), []);
  const models = useStore((s) => s.models);
  const aliases = useStore((s) => s.aliases);
  const selected = useStore((s) => s.selectedModel);
  const modelsError = useStore((s) => s.modelsError);
  const contextChoice = useStore((s) => s.contextChoice);
  const conversationThink = useStore((s) => s.conversationSettings.think);
  const sending = useStore((s) => s.sending);
  const turns = useStore((s) => s.turns);
  const toolRuns = useToolProgress((s) => s.running);
  const activeId = useStore((s) => s.activeId);
  const running = stoppableTurn(turns, toolRunningIn(toolRuns));
  const streamingTurn = running && !running.waiting ? running.turn : undefined;
  // A run waiting for an approval streams nothing, yet it is running: Stop ends it (issue 13).
  const waiting = running?.waiting === true;
  const approvalId = waiting ? pendingApprovalId(turns) : undefined;
  const stoppable = running?.turn;
  const alias = aliasOfRef(selected, aliases);
  const selectedName = selected === null ? null : refLabel(selected, aliases);
  // An alias answers with its model's capabilities.
  const model = models.find((m) => m.name === selected) ?? models.find((m) => m.name === alias?.model);
  // Think mode set on the conversation or the alias wins (DESIGN.md §2 layers): the toggle then only says so.
  const thinkSetBy = conversationThink !== null ? { mode: conversationThink, by: 'this conversation' } : alias ? { mode: alias.thinkMode, by: `alias ${alias.name}` } : null;
  const canThink = useStore(thinkToggleOffered);
  const thinkHeld = useStore(thinkToggleHeld);
  const modelThinks = useStore(chosenModelThinks);
  const think = useStore((s) => s.composerThink);
  // Unknown capabilities do not block images: the server is the one to say no.
  const noVision = cannotSee(model);

  // Attachments count as main measured them for this model: their text as sent, the chosen pages only.
  const costs = useAttachmentCosts((s) => s.costs);
  // Scaled by what the server counted for this model: a tokenizer unlike the character rule can be 7x off.
  const ratio = contextChoice?.estimateRatio ?? 1;
  const cost = (b: AttachmentBlock) => costFor(costs, b, ratio);
  const history = useMemo(() => measureTurns(turns, (b) => costFor(costs, b, ratio)), [turns, costs, selected, ratio]);
  const activeConnection = useStore((s) => s.settings?.activeConnectionId);
  // Nothing to choose, once the list has come (empty, or the server away): the way to a model, where the meter
  // would wait for a window forever. GGUFs in the models folder are counted from main's list, read again as the
  // picker opens (a file copied in by hand while another connection is active tells nothing).
  const ggufs = useLibraryStore((s) => (s.status === null ? null : s.entries.filter((e) => e.state === 'usable').length));
  const activeInfo = connections.find((c) => c.id === (activeConnection ?? 'ollama'));
  const nothingToChoose = selected === null && models.length === 0 && modelsError !== null;
  const modelsFailed = useStore((s) => (s.modelsUnreachable ? (s.modelsAnswered ? 'answered' : 'unreachable') : false));
  const noModels = nothingToChoose ? noModelsHint(activeInfo, ggufs, modelsFailed) : null;
  const noModelShown = selected === null && (nothingToChoose || models.length > 0);
  // The chosen alias's model went (deleted or renamed, here or in another tab): the picker marks the alias, and Send
  // says why instead of sending to a model that is not there (round 10: it stayed enabled, and nothing said so).
  const aliasModelGone = alias && alias.connectionId === (activeConnection ?? 'ollama') ? missingModel(alias, models) : undefined;
  useEffect(() => {
    if (nothingToChoose && activeInfo?.kind !== 'builtin') void loadLibrary();
  }, [nothingToChoose, activeInfo?.kind]);
  // Every attachment of the branch counts, not only those whose chips are on screen (the list is virtualized).
  useEffect(() => {
    for (const t of turns) if (t.role === 'user') for (const b of t.blocks) if (b.type === 'attachment') requestCost(b);
  }, [turns, selected, activeConnection]);
  // The window main will send (kept, recommended, alias, server or fallback), not the model's trained context.
  // Until main has said, nothing is assumed (no "4.1k default" flash) and nothing is refused on a guess.
  const known = contextChoice !== null;
  const contextWindow = contextChoice?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  // An empty draft sends nothing: the meter then shows the conversation alone, the number a refusal card shows.
  const draftEmpty = draft === '' && attachments.items.length === 0;
  const pending = draftEmpty ? measureTurns([]) : measureTurns([{ blocks: [{ type: 'text', text: draft }, ...attachments.items] }], cost);
  // The conversation as main will send it (summaries in place, left-out turns absent, system prompt and tools),
  // counted as the preflight counts it (issue 21); the draft is added to it. Until main answers, the estimate.
  // The system prompt and the window change the request too (the chat's popover, a window kept in Models).
  // So do the tools it offers: none with the chat's tools off, else the built-in ones and the MCP tools on offer.
  const systemPrompt = useStore((s) => s.conversationSettings.systemPrompt);
  const toolsOn = useStore((s) => s.conversationSettings.tools);
  const mcpTools = useMcpStore((s) => offeredToolsKey(s.servers));
  useEffect(() => watchMcpServers(), []);
  const { key, scope } = measureIdentity({ conversationId: activeId, model: selected, connection: activeConnection, turns, window: contextChoice?.contextWindow, systemPrompt, tools: toolsOn ? `tools:${mcpTools}` : 'no-tools' });
  const tipId = turns.at(-1)?.id ?? null;
  const streaming = turns.some((t) => t.status === 'streaming');
  useEffect(() => {
    if (key && !streaming) refreshMeasure(key, { conversationId: activeId, tipId, scope });
  }, [key, streaming]);
  const lastMeasure = useRoom((s) => s.measure);
  const measured = lastMeasure && lastMeasure.key === key ? lastMeasure.value : null;
  // While an answer streams (and until the next measure comes) the last measure stands for what it counted, the
  // system prompt and the tools included, and only the turns since are estimated (all of them after a regenerate).
  const since = !measured && lastMeasure ? measureStandsFor(turns, lastMeasure, activeId, scope) : null;
  // Where main counts the request, it counts the draft's text too once typing pauses: a ratio learned from other
  // text (the tool definitions) is far off for some (CJK, code), and the meter said "fits" of a message then refused.
  const counting = measured !== null && measured.counted !== 'estimate' && !draftEmpty && draft.trim() !== '';
  const draftCount = useDraftCount(key, draft, counting);
  const countingBeforeSend = useRef(false);
  const exactText = draftCount.counted?.tokens;
  const estimatedAll = Math.ceil(estimateTokens(pending) * ratio);
  const estimatedText = draftEmpty ? 0 : Math.min(estimatedAll, Math.ceil(estimateTokens(measureTurns([{ blocks: [{ type: 'text', text: draft }] }])) * ratio));
  // The meter's parts, as a refusal card gives them: main's measure of the conversation, and the draft's message
  // (counted by main where it could be) and files as estimated here (they add up to the estimate).
  const draftText = exactText ?? estimatedText;
  const draftTokens = draftText + (estimatedAll - estimatedText);
  const meterParts = measured?.parts
    ? { ...measured.parts, ...(draftEmpty ? {} : { message: draftText, files: draftTokens - draftText }) }
    : undefined;
  const estimate = measured
    ? measured.tokens + draftTokens
    : since
      ? since.tokens + Math.ceil(estimateTokens(addInputs(measureTurns(since.turns, cost), pending)) * ratio)
      : Math.ceil(estimateTokens(addInputs(history, pending)) * ratio);
  const imagesRefused = noVision && attachments.items.some((b) => b.kind === 'image');
  // The branch's earlier images go to such a model as a note in their place (assemble.ts): said here, before Send,
  // since the chat still shows them. Nothing waits on it.
  const unseenCount = useMemo(() => (noVision ? unseenImages(turns).length : 0), [noVision, turns]);
  const unseenNote = selectedName === null ? null : unseenImagesNote(unseenCount, selectedName);
  const stateOf = (b: AttachmentBlock) => {
    const key = currentKey(b);
    return key ? costs[key] : undefined;
  };
  const inspectionOf = (b: AttachmentBlock) => {
    const st = stateOf(b);
    return st?.status === 'done' ? st.inspection : undefined;
  };
  const unreadable = unreadableFile(attachments.items, stateOf);
  const empty = draft.trim() === '' && attachments.items.length === 0;
  // The window and the room (use-window-room.ts): what is left for each file, over or not, main's plan, the reason.
  const windowRoom = { known, window: contextWindow, estimate, ratio, items: attachments.items, cost, draftText, draftTokens, empty, inspectionOf, tools: measured?.parts?.tools };
  const { rooms, overWindow, roomOpen, room, offer, overReason, reasonPending } = useWindowRoom({ ...windowRoom, activeId, selected, selectedName, streaming, measureKey: key });
  const blockedBy = !selected
    ? (noModels ?? 'Choose a model first.')
    : streamingTurn
      ? 'Wait for the answer, or stop it.'
      : waiting
        ? 'This chat waits for your answer to the tool request above: allow or deny it, or stop.'
        : aliasModelGone !== undefined
          ? aliasModelGone
          : attachments.busy
            ? 'Attaching…'
            : messageRefusal({ text: draft, items: attachments.items, stateOf, modelName: selectedName, noVision, overReason });

  const send = async () => {
    if (blockedBy || sending) return;
    // Sent before main counted the draft (typing had only just paused): counted first, and not sent where it does
    // not fit; the meter and the reason then say so, as they would have a moment later.
    if (counting && exactText === undefined && key && measured && known) {
      // A second Enter meanwhile sends nothing more.
      if (countingBeforeSend.current) return;
      countingBeforeSend.current = true;
      const tokens = (await draftCount.countNow().finally(() => (countingBeforeSend.current = false)))?.tokens;
      if (tokens !== undefined && !fitsWindow(measured.tokens + tokens + (estimatedAll - estimatedText), contextWindow)) return;
    }
    draftSending();
    if (await sendMessage(draft, attachments.items, { fromDraft: true })) {
      setDraft('');
      attachments.clear();
    } else draftEdited();
  };
  // On a touch screen the return key adds a line (its keyboard has no Shift+Enter); Send sends, and so does
  // Ctrl+Enter (Cmd+Enter) from a tablet's keyboard.
  const touch = useMediaQuery(TOUCH);
  useEffect(() => {
    if (!touch) focusAtLoad(textarea.current);
  }, []);
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing && (!touch || e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void send();
    }
  };
  // The chip's remove button goes with it: the focus goes back to the message box.
  const removeAttachment = (b: AttachmentBlock) => {
    attachments.remove(b);
    textarea.current?.focus();
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    if (files.length === 0 || pastesAsText(e.clipboardData, files)) return;
    e.preventDefault();
    // A screenshot comes as "image.png": named "Pasted image N" after those of this chat (pasted-names.ts).
    void attachments.add(namePastedImages(files, attachmentNames(useStore.getState().turns, attachments.items)));
  };
  // A failed send's Retry (its banner) presses Send again with what is here now.
  const sendRequest = useStore((s) => s.sendRequest);
  const lastRequest = useRef(sendRequest);
  useEffect(() => {
    if (sendRequest === lastRequest.current) return;
    lastRequest.current = sendRequest;
    void send();
  });

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        // Send is disabled as the message goes, then Stop takes its place: the focus it had fell to the page's body,
        // and a keyboard user's next Tab started from the top of the page. The message box takes it, as after
        // Regenerate. Not on a touch screen, where the on-screen keyboard would come up over the answer.
        if (!touch) textarea.current?.focus();
        void send();
      }}
    >
      {dragging && (
        <div className="drop-overlay" aria-hidden>
          <div>
            <Paperclip className="icon" />
            Drop files to attach them
          </div>
        </div>
      )}
      <div className="composer-inner">
        {overWindow && roomOpen && activeId && (
          <div className="card room-panel" data-testid="context-room-panel">
            <RoomChoices conversationId={activeId} state={room.state} keepFrom={room.keepFrom} onKeepFrom={room.setKeepFrom} />
          </div>
        )}
        <div className="composer-box">
          {attachments.items.length > 0 && (
            <div className="attachments pending" data-testid="pending-attachments">
              {attachments.items.map((b) => {
                const st = stateOf(b);
                // An image main could not decode gets a chip that says so, as a damaged PDF does (attachments audit #8).
                const unreadableImage = st?.status === 'done' && st.inspection.error !== null;
                if (b.kind === 'image' && !unreadableImage) {
                  return <RemovableThumb key={attachmentKey(b)} block={b} onRemove={() => removeAttachment(b)} />;
                }
                return (
                  <FileChip key={attachmentKey(b)} block={b} onRemove={() => removeAttachment(b)}>
                    {st?.status === 'done' && (
                      <PageRangeRow
                        key={`${b.id}|${selected ?? ''}`}
                        block={b}
                        inspection={st.inspection}
                        room={rooms.get(b) ?? { left: 0, forPages: 0 }}
                        onPages={(pages) => attachments.setPages(b, pages)}
                      />
                    )}
                  </FileChip>
                );
              })}
            </div>
          )}
          <textarea
            ref={textarea}
            data-testid="composer-input"
            aria-label="Message"
            placeholder={touch ? 'Message' : 'Message (Enter sends, Shift+Enter adds a line; paste or drop files)'}
            value={draft}
            rows={1}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKey}
            onPaste={onPaste}
          />
          <div className="composer-bar">
            <AttachButton title={noVision ? 'Attach text, code or PDF files' : 'Attach images or files'} label="Attach files" testId="attach-input" onFiles={(files) => void attachments.add(files)} />
            <ModelPicker models={models} aliases={aliases} connections={connections} activeConnectionId={activeConnection ?? 'ollama'} selected={selected} emptyHint={noModels} />
            <ConversationSettingsButton />
            {(canThink || thinkHeld) && (
              <label className="think-toggle" title={thinkHeld ? 'The server cannot be reached just now: your choice is kept for when it answers' : 'Let the model think before it answers'}>
                <input type="checkbox" data-testid="think-toggle" aria-label="Think before answering" checked={think} disabled={thinkHeld} onChange={(e) => useStore.setState({ composerThink: e.target.checked })} />
                <Brain className="icon think-icon" aria-hidden />
                <span className="label-think">Think</span>
              </label>
            )}
            {thinkSetBy && modelThinks && (
              <span className="think-set" data-testid="think-set-by" title="Change it in the conversation settings or the alias">
                think {thinkSetBy.mode} ({thinkSetBy.by})
              </span>
            )}
            <span className="spacer" />
            {stoppable ? (
              <StopButton onStop={() => void stopTurn(stoppable.id)} />
            ) : (
              <button type="submit" className="primary send" data-testid="composer-send" disabled={blockedBy !== null || sending} title={blockedBy ?? 'Send (Enter)'}>
                <ArrowUp className="icon" aria-hidden />
                <span className="button-label">Send</span>
              </button>
            )}
          </div>
        </div>
        <div className={overWindow ? `composer-foot ${activeId ? 'over-in-chat' : 'over-new-chat'}` : 'composer-foot'}>
          {/* No model: there is no window to read, and the reason says what to do instead. */}
          {!noModelShown ? (
            <ContextMeter estimate={estimate} window={known ? contextWindow : null} source={contextChoice?.source ?? 'unknown'} reason={contextChoice?.reason ?? null} ratio={ratio} counted={measured?.counted ?? null} draftCounted={measured !== null && exactText !== undefined} memory={contextChoice?.memory} parts={meterParts} />
          ) : null}
          {(overWindow || imagesRefused || unreadable || waiting || noModelShown || aliasModelGone !== undefined) && blockedBy && (
            // A waiting approval is said once by the announcer (frame/Announcer.tsx), with the tool's name: not here too.
            <span className="composer-reason" data-testid="composer-reason" role={waiting ? undefined : 'status'}>
              {reasonPending && blockedBy === overReason ? <span aria-hidden>{blockedBy}</span> : blockedBy}
            </span>
          )}
          {/* The card does not take the focus (it would take it from a user typing): one key path goes to it from here. */}
          {approvalId !== undefined && (
            <button type="button" className="small" data-testid="approval-review" aria-label="Review the tool request" onClick={() => reviewApproval(approvalId)}>
              Review
            </button>
          )}
          <KeptEditNote />
          {unseenNote && (
            <span className="composer-note" data-testid="unseen-images-note" role="status">
              <ImageOff className="icon" aria-hidden />
              {unseenNote}
            </span>
          )}
          {overWindow && selected && !(roomOpen && activeId) && <LargerWindowOffer offer={offer} onUse={(window) => void applyChoice(activeId, { kind: 'larger-window', window }).catch(() => undefined)} />}
          {overWindow && activeId && (
            <button type="button" className="small" data-testid="context-make-room" aria-expanded={roomOpen} onClick={() => setRoomOpen(!roomOpen)}>
              Make room…
            </button>
          )}
        </div>
      </div>
    </form>
  );
}

/**
 * Cells copied from a spreadsheet, or a passage from a word processor, come as text, as HTML and as a picture of the
 * selection: the text is what was meant (attachments audit #6; the picture alone was attached and the text lost). A
 * file copied in a file manager, or an image copied from a page, has no such rich text beside it.
 */
export function pastesAsText(data: DataTransfer, files: File[]): boolean {
  return files.every((f) => f.type.startsWith('image/')) && data.getData('text/plain').trim() !== '' && data.types.includes('text/html');
}
