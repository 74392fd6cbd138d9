import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
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
 * closes it. On the button, Enter, Space and ArrowDown open it on its first item, ArrowUp on its last.
 */
export function ConversationMenu({ shown, tabIndex, onChoose }: Props) {
  // Which item takes the focus as it opens (null: closed).
  const [open, setOpen] = useState<'first' | 'last' | null>(null);
  // Whether it opens above its row: null until measured, the moment it opens.
  const [up, setUp] = useState<boolean | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const wrap = useRef<HTMLSpanElement>(null);
  const id = useId();

  // Measured before it is painted: below its row where it fits in what the list shows, else above where that has
  // more room. The last rows' menu opened below and the list scrolled it into view, moving the rows from under the
  // finger, or the window's edge cut it.
  useLayoutEffect(() => {
    if (open === null || up !== null || !menu.current || !wrap.current) return;
    setUp(opensUp(menu.current, wrap.current));
  }, [open, up]);

  useEffect(() => {
    if (open === null || up === null) return;
    // The item asked for takes the focus; the menu is scrolled into the list's view where it fits neither way.
    menu.current?.scrollIntoView({ block: 'nearest' });
    const items = menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]');
    (open === 'first' ? items?.[0] : items?.[items.length - 1])?.focus();
  }, [open, up]);

  useEffect(() => {
    if (open === null) return;
    // A tap or click anywhere else closes it, leaving the focus where that tap put it.
    const outside = (e: PointerEvent) => {
      if (!(e.target instanceof Node) || !wrap.current?.contains(e.target)) setOpen(null);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [open]);

  const show = (at: 'first' | 'last') => {
    setOpen(at);
    setUp(null);
  };
  const close = (focusButton: boolean) => {
    setOpen(null);
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
        if (open !== null && !(e.relatedTarget instanceof Node && wrap.current?.contains(e.relatedTarget))) setOpen(null);
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
        aria-expanded={open !== null}
        aria-controls={open !== null ? id : undefined}
        onClick={() => (open === null ? show('first') : setOpen(null))}
        onKeyDown={(e) => {
          if (e.nativeEvent.isComposing || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
          // Not the list's (its arrows move among the conversations): they open the menu, as WAI-ARIA's menu button.
          e.preventDefault();
          e.stopPropagation();
          show(e.key === 'ArrowDown' ? 'first' : 'last');
        }}
      >
        <Ellipsis className="icon" aria-hidden />
      </button>
      {open !== null && (
        <div className={up ? 'row-menu up' : 'row-menu'} role="menu" id={id} ref={menu} aria-label={`Actions for ${shown}`} data-testid="conversation-menu" onKeyDown={onMenuKey}>
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

/**
 * Whether `menu`, shown below its row, has less room there than above it within what the list (its scroll box, which
 * cuts it) and the window show.
 */
function opensUp(menu: HTMLElement, wrap: HTMLElement): boolean {
  const row = (wrap.closest('li') ?? wrap).getBoundingClientRect();
  const box = wrap.closest('ul')?.getBoundingClientRect();
  const bottom = Math.min(window.innerHeight, box?.bottom ?? Infinity);
  const top = Math.max(0, box?.top ?? -Infinity);
  const height = menu.getBoundingClientRect().height;
  const below = bottom - row.bottom;
  return height > below && row.top - top > below;
}
