import type { Database } from 'better-sqlite3';
import type { BlobStore } from '../blobs/blob-store';
import { conversationView } from '../chat/conversation-view';
import type { ConversationStore } from '../db/conversation-store';
import { DISK_FULL_NOTE } from '../db/left-open';
import type { LiveTurns } from '../engine/live-turns';
import type { AttachmentBlock, Turn } from '../../shared/turn';
import { exportConversation, serializeConversationFile } from './conversation-io';
import { branchToMarkdown, type DocumentTextOf } from './markdown';

/**
 * The file a user saves: the whole conversation (JSON, re-importable) or its active branch as Markdown. `live`:
 * the answers the last run left open that a full disk kept from being saved as interrupted (db/left-open.ts) are
 * exported as the page shows them, interrupted (round 7: the Markdown carried no "interrupted" mark, and the JSON
 * said "streaming"). `documentText`: the attachments' texts, read beforehand (branchDocuments names them), that the
 * Markdown holds under their names.
 */
export function exportFile(
  deps: { db: Database; store: ConversationStore; blobs: BlobStore; live?: LiveTurns | undefined; documentText?: DocumentTextOf | undefined },
  conversationId: string,
  format: 'json' | 'markdown',
): { fileName: string; mime: string; text: string; title: string } {
  // An answer streaming now as far as it has streamed, not as last written (at most half a second older).
  const view = conversationView(deps.store, conversationId, undefined, undefined, deps.live ? { live: deps.live } : {});
  const base = safeFileName(view.conversation.title);
  const asShown = shownForExport(deps.live);
  if (format === 'markdown') {
    return { fileName: `${base}.md`, mime: 'text/markdown', text: branchToMarkdown(view.conversation.title, view.turns.map(asShown), deps.documentText), title: view.conversation.title };
  }
  const file = exportConversation(deps, conversationId, Date.now());
  return { fileName: `${base}.firebrand.json`, mime: 'application/json', text: serializeConversationFile({ ...file, turns: file.turns.map(asShown) }), title: view.conversation.title };
}

/** A turn as an export holds it: one the last run left open as the page shows it (interrupted), without the page's note. */
export function shownForExport(live: LiveTurns | undefined): (turn: Turn) => Turn {
  return (turn) => exported(live?.leftOpen?.shown(turn)) ?? turn;
}

/** The note that this computer's disk is full belongs on the page, not in the file. */
function exported(shown: Turn | undefined): Turn | undefined {
  if (shown?.error !== DISK_FULL_NOTE) return shown;
  const { error: _note, ...turn } = shown;
  return turn;
}

/**
 * A title as a file name on any system: no separators, control or reserved characters, not too long. At most
 * NAME_UNITS UTF-16 units (240 UTF-8 bytes), so the name with ".firebrand.json" fits the 255 bytes most disks allow.
 */
export function safeFileName(title: string): string {
  const cleaned = title.replace(/[\u0000-\u001f\u007f<>:"/\\|?*\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').replace(/^[.\s]+/, '').trim();
  return shortened(cleaned) || 'conversation';
}

const NAME_UNITS = 80;
/** How far back from the limit a space may be for the name to end at a word's end rather than inside a word. */
const WORD_REACH = 24;
const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}', '“': '”', '‘': '’', '«': '»', '‹': '›', '「': '」', '『': '』', '（': '）', '【': '】' };
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A long name cut by whole characters (a name cut at 80 UTF-16 units could end in half an emoji, a broken character),
 * at the end of a word where one is near, and without a bracket or quote it leaves open: "… long enough (impor" was
 * a name; it is now "… long enough".
 */
function shortened(name: string): string {
  if (name.length <= NAME_UNITS) return name;
  let hard = 0;
  for (const { segment } of segmenter.segment(name)) {
    if (hard + segment.length > NAME_UNITS) break;
    hard += segment.length;
  }
  const kept = name.slice(0, hard);
  // Cut inside a word: end at the last space, when one is near enough that the name keeps most of its length.
  const space = name[hard] === ' ' ? hard : kept.lastIndexOf(' ');
  let cut = space >= hard - WORD_REACH && space > 0 ? name.slice(0, space) : kept;
  cut = withoutOpenEnd(cut);
  return cut.replace(/[\s,;:.\-–—]+$/, '') || kept.trimEnd();
}

/** The name without a bracket or quote near its end that is not closed after it ("… notes (draft" → "… notes"). */
function withoutOpenEnd(name: string): string {
  const open: number[] = [];
  const want: string[] = [];
  for (let i = 0; i < name.length; i += 1) {
    const ch = name[i] ?? '';
    const closer = CLOSER[ch];
    if (closer) {
      open.push(i);
      want.push(closer);
    } else if (want.length > 0 && ch === want[want.length - 1]) {
      open.pop();
      want.pop();
    }
  }
  // A bracket opened far back holds most of the name: kept as it is, rather than cut to almost nothing.
  const near = open.find((i) => i >= name.length - WORD_REACH);
  return near !== undefined && near > 0 ? name.slice(0, near) : name;
}

/** The document and text attachments of a conversation's active branch, for a Markdown export to hold their text. */
export function branchDocuments(store: ConversationStore, conversationId: string): AttachmentBlock[] {
  const leaf = store.getConversationRecord(conversationId)?.activeLeafId;
  if (!leaf) return [];
  return store.branch(leaf).flatMap((t) => t.blocks.filter((b): b is AttachmentBlock => b.type === 'attachment' && b.kind !== 'image'));
}
