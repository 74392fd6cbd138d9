import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Download, Ellipsis, FileText, Pencil, Trash2 } from 'lucide-react';

export type ConversationMenuAction = 'rename' | 'export' | 'export-md' | 'delete';

const ITEMS: { action: ConversationMenuAction; label: string; Icon: typeof Pencil }[] = [
  { action: 'rename', label: 'Rename', Icon: Pencil },
  { action: 'export', label: 'Export', Icon: Download },
  { action: 'export-md', label: 'Export as Markdown', Icon: FileText },
  { action: 'delete', label: 'Delete', Icon: Trash2 },
];

interface Props {
  /** The title as the buttons name it (direction controls shown as code points). */
  shown: string;
  tabIndex: number;
  onChoose: (action: ConversationMenuAction) => void;
}

/**
 * A conversation's More (⋯) button and its menu: on a touch screen or a narrow window (layout.css shows it in place
 * of the row's four buttons), where those four, always shown there as they cannot show on hover, left a phone's
 * title about 140 px and chats named alike read the same. A menu button as WAI-ARIA's pattern has it: the arrows,
 * Home and End move among its items, Escape closes it with the focus back on the button, Tab or a tap outside
 * closes it.
 */
export function ConversationMenu({ shown, tabIndex, onChoose }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const wrap = useRef<HTMLSpanElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    // The first item takes the focus, and the menu is scrolled into the list's view (the last row's opens below it).
    menu.current?.scrollIntoView({ block: 'nearest' });
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    // A tap or click anywhere else closes it, leaving the focus where that tap put it.
    const outside = (e: PointerEvent) => {
      if (!(e.target instanceof Node) || !wrap.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [open]);

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };
  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.nativeEvent.isComposing) return;
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.findIndex((item) => item === document.activeElement);
    let next: HTMLElement | undefined;
    if (e.key === 'ArrowDown') next = items[(at + 1) % items.length];
    else if (e.key === 'ArrowUp') next = items[(at - 1 + items.length) % items.length];
    else if (e.key === 'Home') next = items[0];
    else if (e.key === 'End') next = items.at(-1);
    else if (e.key === 'Escape') {
      // Its own: not the drawer's Escape (it closes the drawer) nor the answer's (it stops it).
      e.preventDefault();
      e.stopPropagation();
      close(true);
      return;
    } else if (e.key === 'Tab') {
      // Closed, and Tab goes on from the button (its default, after this handler).
      close(true);
      return;
    } else return;
    // Not the list's: its arrows move among the conversations.
    e.preventDefault();
    e.stopPropagation();
    next?.focus();
  };

  return (
    <span
      className="row-more"
      ref={wrap}
      onBlur={(e) => {
        // The focus gone elsewhere (not to an item or the button) closes it.
        if (open && !(e.relatedTarget instanceof Node && wrap.current?.contains(e.relatedTarget))) setOpen(false);
      }}
    >
      <button
        type="button"
        ref={button}
        className="icon-btn small"
        tabIndex={tabIndex}
        data-testid="conversation-more"
        aria-label={`More actions for ${shown}`}
        title="Rename, export or delete"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((was) => !was)}
      >
        <Ellipsis className="icon" aria-hidden />
      </button>
      {open && (
        <div className="row-menu" role="menu" id={id} ref={menu} aria-label={`Actions for ${shown}`} data-testid="conversation-menu" onKeyDown={onMenuKey}>
          {ITEMS.map(({ action, label, Icon }) => (
            <button
              key={action}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={action === 'delete' ? 'row-menu-item row-menu-delete' : 'row-menu-item'}
              data-testid={`conversation-menu-${action}`}
              onClick={() => {
                // Rename and Delete move the focus themselves (to the field; to the next conversation).
                close(action === 'export' || action === 'export-md');
                onChoose(action);
              }}
            >
              <Icon className="icon" aria-hidden />
              {label}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
