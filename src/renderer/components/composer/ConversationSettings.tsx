import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import type { ConversationSettings } from '../../../shared/ipc';
import type { ThinkMode } from '../../../shared/models';
import { firebrand } from '../../firebrand';
import { useStore } from '../../store';
import { saveConversationSettings } from '../../store/conversation-settings';
import { dropUnsavedChatSettings, keepUnsavedChatSettings, noteUnsavedTyping, takeNewChatStart, unsavedChatSettings, type UnsavedChatSettings } from '../../store/unsaved-chat-settings';

const MODES: ThinkMode[] = ['off', 'on', 'low', 'medium', 'high'];

/** What the popover's fields hold. */
type Fields = UnsavedChatSettings;

/*
 * Chat settings typed and neither saved nor cancelled are kept by conversation (store/unsaved-chat-settings.ts). The
 * popover closes when the focus leaves it (Tab past Save, a click elsewhere), on Escape and when another chat opens;
 * what was typed in it comes back when it opens again for that chat (for a new chat, in the chat its first message
 * created), and after a reload or a restart. Only Cancel (and Save) throws it away.
 */

/** The popover's fields for `settings`. */
const fieldsOf = (settings: ConversationSettings): Fields => ({ prompt: settings.systemPrompt, think: settings.think ?? '', tools: settings.tools });

/** The fields by the words the popover's note uses for them. */
const FIELD_WORDS: Record<keyof Fields, string> = { prompt: 'system prompt', think: 'think mode', tools: 'tools choice' };

/**
 * What the open popover says when another window or tab saved this chat's settings: the fields left as shown have
 * followed (said, where they changed without a word), and a field the user had changed keeps theirs, not the other
 * window's, which is said too, with what Save then does. `kept`: the fields changed there and here alike.
 */
export function changedElsewhereNote(kept: (keyof Fields)[]): string {
  if (kept.length === 0) return 'Changed in another window.';
  const names = kept.map((k) => FIELD_WORDS[k]);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `Changed in another window. Your ${list} ${kept.length === 1 ? 'is kept here, not the one' : 'are kept here, not the ones'} saved there: Save saves yours.`;
}

/** Whether `fields` are what is saved (a kept draft may be saved since, by a banner's Retry or another tab). */
function isSaved(fields: Fields, settings: ConversationSettings): boolean {
  return fields.prompt === settings.systemPrompt && fields.think === (settings.think ?? '') && fields.tools === settings.tools;
}

/**
 * The conversation's own layer (DESIGN.md §2: app default → alias → conversation): a system prompt and a think
 * mode that win over the alias's, and whether the model is offered tools at all (issue 19). For a new chat they
 * are kept until its first message creates it.
 */
export function ConversationSettingsButton() {
  const settings = useStore((s) => s.conversationSettings);
  const activeId = useStore((s) => s.activeId);
  // The conversation the open popover edits (null: a new chat). Another one opened closes it, so its draft cannot be
  // saved into a chat it was not written for (turns audit #2).
  const [open, setOpen] = useState<{ conversationId: string | null } | null>(null);
  const [prompt, setPrompt] = useState(settings.systemPrompt);
  const [think, setThink] = useState<ThinkMode | ''>(settings.think ?? '');
  const [tools, setTools] = useState(settings.tools);
  /**
   * Said in the open popover (and heard: a polite live region) when another window or tab saved this chat's
   * settings: the fields changed under the user's eyes without a word. Cleared by their next change, and on close.
   */
  const [elsewhere, setElsewhere] = useState<string | null>(null);
  /** The settings its read as it opens brought: this popover's own catching up, not news to say, so followed silently. */
  const readAtOpen = useRef<ConversationSettings | null>(null);
  /** Whether the open popover shows fields kept from an earlier opening, not saved yet. */
  const [restored, setRestored] = useState(false);
  /** Bumped as the fields kept unsaved change, which the button shows. */
  const [, setKeptVersion] = useState(0);
  const keptNow = unsavedChatSettings(activeId);
  const unsaved = keptNow !== undefined && !isSaved(keptNow, settings);
  const fields = useRef<Fields>({ prompt, think, tools });
  fields.current = { prompt, think, tools };
  const saved = useRef(settings);
  saved.current = settings;
  const button = useRef<HTMLButtonElement>(null);
  const wrap = useRef<HTMLSpanElement>(null);
  /** Whether the user changed a field since the popover opened. */
  const edited = useRef(false);
  /**
   * What the open popover showed of the saved settings. A field still as shown follows a save made meanwhile (the
   * read as it opens, another tab's Save): open in two tabs, a think mode saved in one put back the system prompt the
   * other had just saved, as this one had shown it, and that prompt was lost without a word. A field the user
   * changed keeps what they typed.
   */
  const shown = useRef<Fields>(fieldsOf(settings));
  const follow = (now: ConversationSettings) => {
    const next = fieldsOf(now);
    const was = shown.current;
    const current = fields.current;
    if (current.prompt === was.prompt) setPrompt(next.prompt);
    if (current.think === was.think) setThink(next.think);
    if (current.tools === was.tools) setTools(next.tools);
    shown.current = next;
    // Changed there, to other than what this popover holds (its own Save holds what it saved: nothing to say).
    const changed = (Object.keys(FIELD_WORDS) as (keyof Fields)[]).filter((k) => next[k] !== was[k] && next[k] !== current[k]);
    if (now === readAtOpen.current || changed.length === 0) return;
    setElsewhere(changedElsewhereNote(changed.filter((k) => current[k] !== was[k])));
  };
  /**
   * Closes it keeping what was typed for `conversationId`, unless nothing was changed or it is what is saved (not
   * compared when another chat opened: the settings held then may be that chat's).
   */
  const closeKeeping = (conversationId: string | null, compare = true) => {
    const now = fields.current;
    const same = compare && isSaved(now, saved.current);
    if (edited.current && same) dropUnsavedChatSettings(conversationId);
    else if (edited.current) keepUnsavedChatSettings(conversationId, now);
    setKeptVersion((v) => v + 1);
    setElsewhere(null);
    setOpen(null);
  };
  // Closed from inside (Escape, Cancel, Save), the focus goes back to the button: it was in the popover, now gone.
  const close = () => {
    setElsewhere(null);
    setOpen(null);
    button.current?.focus();
  };
  /** Cancel and Save: nothing of it is kept to come back. */
  const drop = (conversationId: string | null) => {
    dropUnsavedChatSettings(conversationId);
    setKeptVersion((v) => v + 1);
  };
  const openFor = useRef(open);
  openFor.current = open;
  useEffect(() => {
    // Open for a new chat whose first message created the chat now open: what was typed is that chat's.
    const created = takeNewChatStart();
    const was = openFor.current;
    if (was && was.conversationId !== activeId) closeKeeping(was.conversationId === null && created === activeId ? activeId : was.conversationId, false);
    // closeKeeping reads refs only: this runs when another chat opens, not on every edit.
  }, [activeId]);
  useEffect(() => {
    // The chat's settings as saved changed while the popover is open for it (its read as it opened, another tab's
    // Save, a reconnect's read): the fields the user left as shown follow.
    if (open && open.conversationId === activeId) follow(settings);
    // follow reads refs only: this runs when the saved settings change, not on every edit.
  }, [settings]);
  const set = settings.systemPrompt.trim() !== '' || settings.think !== null || !settings.tools;
  // What is typed goes to storage at each change, so a reload with the popover open brings it back (not saved).
  const edit =
    <K extends keyof Fields>(field: K, setField: (value: Fields[K]) => void) =>
    (value: Fields[K]) => {
      edited.current = true;
      setElsewhere(null);
      setField(value);
      if (openFor.current) noteUnsavedTyping(openFor.current.conversationId, { ...fields.current, [field]: value });
    };
  const show = () => {
    const id = activeId;
    let kept = unsavedChatSettings(id);
    if (kept && isSaved(kept, settings)) {
      dropUnsavedChatSettings(id);
      kept = undefined;
      setKeptVersion((v) => v + 1);
    }
    setPrompt(kept?.prompt ?? settings.systemPrompt);
    setThink(kept ? kept.think : (settings.think ?? ''));
    setTools(kept?.tools ?? settings.tools);
    setRestored(kept !== undefined);
    setElsewhere(null);
    setOpen({ conversationId: id });
    shown.current = fieldsOf(settings);
    // Fields kept from before win over a late read, as fields typed now do.
    edited.current = kept !== undefined;
    if (id === null) return;
    // Read again as it opens: another window or tab may have saved this chat's settings since this one read them,
    // and saving what this one held put them back (resilience audit R9: its system prompt was lost to a think change).
    void firebrand()
      .conversations.getSettings({ conversationId: id })
      .then((now) => {
        if (useStore.getState().activeId !== id) return;
        readAtOpen.current = now;
        useStore.setState({ conversationSettings: now });
      })
      .catch(() => undefined);
  };
  // It opens upwards from the composer: no taller than the room above it, so on a short window (a laptop at
  // 200 % zoom) it scrolls inside instead of losing its top, the system prompt, above the window.
  const popover = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = popover.current;
    if (!open || !el) return;
    const fit = () => {
      const above = el.offsetParent?.getBoundingClientRect().top ?? window.innerHeight;
      el.style.maxHeight = `${Math.max(120, Math.floor(above - 6 - 8))}px`;
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [open]);
  const save = async () => {
    if (!open) return;
    if (await saveConversationSettings(open.conversationId, { systemPrompt: prompt, think: think === '' ? null : think, tools })) {
      drop(open.conversationId);
      close();
    }
  };
  return (
    <span
      className="conversation-settings-wrap"
      ref={wrap}
      // Keyboard pass: Tab past Save went on to Send with the popover still open over the chat. It closes when the
      // focus leaves it and its button, keeping what was typed (a click elsewhere too); not when the window loses
      // the focus (another app), which gives it back where it was.
      onBlur={(e) => {
        if (!open || (e.relatedTarget instanceof Node && wrap.current?.contains(e.relatedTarget))) return;
        const conversationId = open.conversationId;
        setTimeout(() => {
          // Another app taking the focus leaves document.activeElement where it was, in here.
          if (wrap.current?.contains(document.activeElement)) return;
          if (openFor.current?.conversationId === conversationId) closeKeeping(conversationId);
        }, 0);
      }}
    >
      <button
        type="button"
        ref={button}
        data-testid="conversation-settings-open"
        aria-expanded={open !== null}
        aria-haspopup="dialog"
        className={set ? 'ghost conversation-settings-button set' : 'ghost conversation-settings-button'}
        title={unsaved ? 'System prompt, think mode and tools for this conversation: your changes are not saved yet' : 'System prompt, think mode and tools for this conversation'}
        onClick={() => (open ? closeKeeping(open.conversationId) : show())}
      >
        <SlidersHorizontal className="icon" aria-hidden />
        <span className="label-wide">Chat settings</span>
        {set ? ' •' : ''}
        {unsaved && (
          <span className="settings-unsaved-mark" data-testid="conversation-settings-unsaved-mark">
            <span aria-hidden>*</span>
            <span className="sr-only">, changes not saved</span>
          </span>
        )}
      </button>
      {open && (
        <div
          ref={popover}
          className="conversation-settings"
          role="dialog"
          aria-label="Conversation settings"
          data-testid="conversation-settings"
          // Focusable, so a click on its padding or a label's text keeps the focus in it (else it went to <body>,
          // which closes it).
          tabIndex={-1}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !e.nativeEvent.isComposing) {
              e.stopPropagation();
              closeKeeping(open.conversationId);
              button.current?.focus();
            }
          }}
        >
          {/* Always there, so the live region is in place before its words come (a screen reader hears them). */}
          <p className="settings-elsewhere-note" role="status" data-testid="conversation-settings-elsewhere">
            {elsewhere}
          </p>
          {restored && (
            <p className="settings-unsaved-note" data-testid="conversation-settings-unsaved">
              Not saved yet: Save keeps these changes, Cancel drops them.
            </p>
          )}
          <label>
            System prompt
            <textarea data-testid="conversation-system-prompt" rows={4} value={prompt} autoFocus onChange={(e) => edit('prompt', setPrompt)(e.target.value)} />
          </label>
          <label>
            Think{' '}
            <select data-testid="conversation-think" value={think} onChange={(e) => edit('think', setThink)(e.target.value as ThinkMode | '')}>
              <option value="">as the model or alias says</option>
              {MODES.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label className="radio" title="Small models often answer better without tool descriptions in their context">
            <input type="checkbox" data-testid="conversation-tools" checked={tools} onChange={(e) => edit('tools', setTools)(e.target.checked)} />
            Offer tools to the model
          </label>
          <div className="modal-actions">
            <button
              type="button"
              onClick={() => {
                drop(open.conversationId);
                close();
              }}
            >
              Cancel
            </button>
            <button type="button" className="primary" data-testid="conversation-settings-save" onClick={() => void save()}>
              Save
            </button>
          </div>
        </div>
      )}
    </span>
  );
}
