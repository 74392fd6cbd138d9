import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import type { ThinkMode } from '../../../shared/models';
import { firebrand } from '../../firebrand';
import { useStore } from '../../store';
import { saveConversationSettings } from '../../store/conversation-settings';

const MODES: ThinkMode[] = ['off', 'on', 'low', 'medium', 'high'];

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
  useEffect(() => {
    if (open && open.conversationId !== activeId) setOpen(null);
  }, [open, activeId]);
  const [prompt, setPrompt] = useState(settings.systemPrompt);
  const [think, setThink] = useState<ThinkMode | ''>(settings.think ?? '');
  const [tools, setTools] = useState(settings.tools);
  const button = useRef<HTMLButtonElement>(null);
  // Closed from inside (Escape, Cancel, Save), the focus goes back to the button: it was in the popover, now gone.
  const close = () => {
    setOpen(null);
    button.current?.focus();
  };
  const set = settings.systemPrompt.trim() !== '' || settings.think !== null || !settings.tools;
  /** Whether the user changed a field since the popover opened: then what they typed wins over a late read. */
  const edited = useRef(false);
  const edit =
    <T,>(setField: (value: T) => void) =>
    (value: T) => {
      edited.current = true;
      setField(value);
    };
  const show = () => {
    const id = activeId;
    setPrompt(settings.systemPrompt);
    setThink(settings.think ?? '');
    setTools(settings.tools);
    setOpen({ conversationId: id });
    edited.current = false;
    if (id === null) return;
    // Read again as it opens: another window or tab may have saved this chat's settings since this one read them,
    // and saving what this one held put them back (resilience audit R9: its system prompt was lost to a think change).
    void firebrand()
      .conversations.getSettings({ conversationId: id })
      .then((now) => {
        if (useStore.getState().activeId !== id) return;
        useStore.setState({ conversationSettings: now });
        if (edited.current) return;
        setPrompt(now.systemPrompt);
        setThink(now.think ?? '');
        setTools(now.tools);
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
    if (await saveConversationSettings(open.conversationId, { systemPrompt: prompt, think: think === '' ? null : think, tools })) close();
  };
  return (
    <span className="conversation-settings-wrap">
      <button
        type="button"
        ref={button}
        data-testid="conversation-settings-open"
        aria-expanded={open !== null}
        aria-haspopup="dialog"
        className={set ? 'ghost conversation-settings-button set' : 'ghost conversation-settings-button'}
        title="System prompt, think mode and tools for this conversation"
        onClick={() => (open ? setOpen(null) : show())}
      >
        <SlidersHorizontal className="icon" aria-hidden />
        <span className="label-wide">Chat settings</span>
        {set ? ' •' : ''}
      </button>
      {open && (
        <div
          ref={popover}
          className="conversation-settings"
          role="dialog"
          aria-label="Conversation settings"
          data-testid="conversation-settings"
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !e.nativeEvent.isComposing) {
              e.stopPropagation();
              close();
            }
          }}
        >
          <label>
            System prompt
            <textarea data-testid="conversation-system-prompt" rows={4} value={prompt} autoFocus onChange={(e) => edit(setPrompt)(e.target.value)} />
          </label>
          <label>
            Think{' '}
            <select data-testid="conversation-think" value={think} onChange={(e) => edit(setThink)(e.target.value as ThinkMode | '')}>
              <option value="">as the model or alias says</option>
              {MODES.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label className="radio" title="Small models often answer better without tool descriptions in their context">
            <input type="checkbox" data-testid="conversation-tools" checked={tools} onChange={(e) => edit(setTools)(e.target.checked)} />
            Offer tools to the model
          </label>
          <div className="modal-actions">
            <button type="button" onClick={close}>
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
