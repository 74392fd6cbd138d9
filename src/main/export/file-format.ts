import { createHash } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import type { ConversationSettings } from '../../shared/ipc';
import { THINK_MODES } from '../../shared/connections';
import type { AttachmentBlock, Turn } from '../../shared/turn';
import { bytesHoldAs, checkAttachment, displayName } from '../blobs/attachment-checks';
import { attachmentKind } from '../blobs/sniff';
import type { ConversationRecord } from '../db/conversation-store';
import { UserFacingError } from '../errors';
import { importedTurnSchema } from './turn-schema';
import { otherAppExport, otherAppReason } from './other-app-export';

export const EXPORT_FORMAT = 'firebrand.conversation';
/** Bump when a change would make an older Firebrand misread the file; older versions refuse newer files. */
export const EXPORT_VERSION = 1;

/** One conversation with every branch and the bytes of every attachment it uses. */
export interface ConversationFile {
  format: typeof EXPORT_FORMAT;
  version: number;
  exportedAt: number;
  conversation: ConversationRecord;
  /** The conversation's own system prompt, think mode and tools switch; absent in files written before they were kept. */
  settings?: ConversationSettings;
  /** Parents before children. */
  turns: Turn[];
  /** Attachment bytes by sha256, base64-encoded. */
  blobs: Record<string, { mime: string; size: number; base64: string }>;
}

/**
 * Every conversation at once (Export all): each with its settings and turns as in a ConversationFile, and the
 * bytes of every attachment they use once, by digest, however many conversations share it.
 */
export interface ConversationsFile {
  format: typeof ALL_EXPORT_FORMAT;
  version: number;
  exportedAt: number;
  /** The most recently updated first. */
  conversations: Pick<ConversationFile, 'conversation' | 'settings' | 'turns'>[];
  blobs: ConversationFile['blobs'];
}

export const ALL_EXPORT_FORMAT = 'firebrand.conversations';

/** One conversation of a checked file. */
export interface CheckedConversation {
  conversation: ConversationRecord;
  settings?: ConversationSettings;
  /** Parents before children. */
  turns: Turn[];
}

/**
 * An export file (one conversation or all of them) after every check: attachment bytes decoded, verified and
 * passed through the upload checks. `all`: the file was an Export all.
 */
export interface CheckedConversationFile {
  all: boolean;
  conversations: CheckedConversation[];
  blobs: Record<string, { mime: string; bytes: Uint8Array }>;
}

/** A parsed file before its bytes are decoded: its conversations (structure checked) and its blobs. */
interface ParsedExport {
  all: boolean;
  version: number;
  exportedAt: number;
  conversations: CheckedConversation[];
  blobs: ConversationFile['blobs'];
}

/**
 * Parses and checks an export file completely before anything is written, so a bad file is refused whole:
 * the structure, every turn against the same kind of schema an IPC payload meets, and every attachment against
 * exactly the checks an upload gets (size, magic bytes, no SVG), its blocks agreeing with its bytes. Runs in a
 * worker thread (src/main/workers): a large file costs the event loop nothing.
 */
export function checkConversationFile(text: string, name?: string): CheckedConversationFile {
  return namingTheFile(name, () => checkFile(text));
}

function checkFile(text: string): CheckedConversationFile {
  const file = parseExport(text);
  const blobs: CheckedConversationFile['blobs'] = {};
  const blocksOf = new Map<string, AttachmentBlock[]>();
  for (const turn of file.conversations.flatMap((c) => c.turns)) {
    for (const b of turn.blocks) if (b.type === 'attachment') blocksOf.set(b.id, [...(blocksOf.get(b.id) ?? []), b]);
  }
  for (const [digest, blob] of Object.entries(file.blobs)) {
    const bytes = Buffer.from(blob.base64, 'base64');
    if (createHash('sha256').update(bytes).digest('hex') !== digest) throw invalid('an attachment’s bytes do not match its digest');
    const blocks = blocksOf.get(digest) ?? [];
    const checked = checkedAttachment(bytes, blocks[0]?.name ?? 'attachment', blob.mime);
    // Each block keeps its own type where the bytes hold as it (attachments audit #3): one page's source sent as
    // HTML in one message and as text in another comes back read each way.
    for (const b of blocks) {
      const own = b.mime.toLowerCase();
      // A block read as text is checked as a text upload of its bytes would be, under its own name: bytes stored as
      // no known type, whose block says text/plain, are refused as binary data, as attaching them as text would be.
      if (own !== checked.mime && attachmentKind(own) === 'text') checkedAttachment(bytes, b.name, own);
      if (!bytesHoldAs(bytes, own) || b.kind !== attachmentKind(own) || b.size !== checked.size) {
        throw invalid(`attachment “${checked.name}” does not match its bytes (it says ${b.kind} ${b.mime}, ${b.size} bytes)`);
      }
    }
    blobs[digest] = { mime: checked.mime, bytes };
  }
  // Names as an upload would keep them: no invisible characters that spoof or break a line.
  const conversations = file.conversations.map((c) => ({
    ...c,
    turns: c.turns.map((t) => ({
      ...t,
      blocks: t.blocks.map((b) => (b.type === 'attachment' ? { ...b, name: displayName(b.name), mime: b.mime.toLowerCase() } : b)),
    })),
  }));
  return { all: file.all, conversations, blobs };
}

/** Parses a one-conversation export file and checks its structure (turns, tree, digests named), before any bytes are decoded. */
export function parseConversationFile(text: string, name?: string): ConversationFile {
  return namingTheFile(name, () => {
    const file = parseExport(text);
    const [only] = file.conversations;
    if (file.all || !only) throw invalid('it holds every conversation of an Export all, not one conversation');
    return { format: EXPORT_FORMAT, version: file.version, exportedAt: file.exportedAt, ...only, blobs: file.blobs };
  });
}

/** Parses either kind of export file and checks its structure, before any bytes are decoded. */
function parseExport(text: string): ParsedExport {
  // An export opened and saved again in an editor that writes a byte-order mark (Notepad) is the same export
  // (export audit #3: JSON.parse refused it as "not valid JSON").
  const json = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    // The Markdown export sits beside the JSON one in the conversation list; it was refused as "not valid JSON",
    // which did not say which file to pick instead (export audit #3).
    if (/^\s*# /.test(json)) throw invalid('it is a Markdown export, which is for reading; import the conversation’s .firebrand.json export instead');
    // An export that starts as one and does not parse was cut short or damaged (a download or copy that did not
    // finish): "not valid JSON" did not say so (export audit).
    if (/^\s*\{\s*"format"\s*:\s*"firebrand\.conversations?"/.test(json)) {
      throw invalid('it starts as a Firebrand export but is cut short or damaged (a download or copy that did not finish?); export it again');
    }
    // Any other JSON that stops part way (it was "not valid JSON", words a user could do nothing with).
    if (/^\s*[[{]/.test(json) && stopsShort(json, err)) {
      throw invalid('it looks cut short or damaged (a download or copy that did not finish?), so it cannot be read');
    }
    // A picture, a PDF or any other file picked by mistake was "not valid JSON": jargon that did not say what
    // Import reads.
    throw invalid(NOT_AN_EXPORT);
  }
  if (!isObject(data) || (data.format !== EXPORT_FORMAT && data.format !== ALL_EXPORT_FORMAT)) {
    const app = otherAppExport(data);
    throw invalid(app ? otherAppReason(app) : NOT_AN_EXPORT);
  }
  if (typeof data.version !== 'number' || !Number.isInteger(data.version) || data.version < 1) throw invalid('its format version is missing');
  if (data.version > EXPORT_VERSION) {
    throw new Refusal(
      // "Nothing was imported." as every other refusal says: without it a user could not tell whether some came in.
      (file) =>
        `${file} was exported by a newer version of Firebrand (format ${data.version}; this app reads up to ${EXPORT_VERSION}). Update Firebrand to import it. Nothing was imported.`,
    );
  }
  const blobs = checkBlobs(data.blobs);
  const all = data.format === ALL_EXPORT_FORMAT;
  let conversations: CheckedConversation[];
  if (all) {
    if (!Array.isArray(data.conversations)) throw invalid('it has no conversations list');
    if (data.conversations.length === 0) throw invalid('it holds no conversations');
    conversations = data.conversations.map((entry: unknown, i: number) => {
      if (!isObject(entry)) throw invalid(`conversation ${i + 1} is malformed`);
      return checkConversation(entry, blobs, `conversation ${i + 1}: `);
    });
    // Ids are kept on import where they are free: two entries naming the same ones cannot both keep them.
    const conversationIds = new Set(conversations.map((c) => c.conversation.id));
    if (conversationIds.size !== conversations.length) throw invalid('two conversations share an id');
    const turnIds = new Set<string>();
    for (const turn of conversations.flatMap((c) => c.turns)) {
      if (turnIds.has(turn.id)) throw invalid('two messages in different conversations share an id');
      turnIds.add(turn.id);
    }
  } else {
    conversations = [checkConversation(data, blobs, '')];
  }
  return { all, version: data.version, exportedAt: typeof data.exportedAt === 'number' ? data.exportedAt : 0, conversations, blobs };
}

/** One conversation's header, settings and turns; `where` names it in an all-export's refusal. */
function checkConversation(data: Record<string, unknown>, blobs: ConversationFile['blobs'], where: string): CheckedConversation {
  const conversation = data.conversation;
  if (
    !isObject(conversation) ||
    typeof conversation.id !== 'string' ||
    conversation.id === '' ||
    conversation.id.length > 200 ||
    typeof conversation.title !== 'string' ||
    conversation.title.length > 1000 ||
    !(conversation.model === null || typeof conversation.model === 'string') ||
    !(conversation.activeLeafId === null || typeof conversation.activeLeafId === 'string') ||
    typeof conversation.createdAt !== 'number' ||
    typeof conversation.updatedAt !== 'number'
  ) {
    throw invalid(`${where}its conversation header is malformed`);
  }
  const settings = checkSettings(data.settings, where);
  if (!Array.isArray(data.turns)) throw invalid(`${where}it has no turns list`);
  const turns = data.turns.map((t: unknown, i: number) => checkTurn(t, i, conversation.id as string, where));
  for (const turn of turns) {
    for (const block of turn.blocks) {
      if (block.type === 'attachment' && !(block.id in blobs)) throw invalid(`${where}the bytes of attachment “${block.name}” are missing`);
    }
  }
  const ordered = parentsFirst(turns, where);
  if (conversation.activeLeafId !== null && !turns.some((t) => t.id === conversation.activeLeafId)) {
    throw invalid(`${where}its active branch points at a message that is not in the file`);
  }
  return {
    // A blank title would leave a row with no text in the list (and buttons named "Rename ").
    conversation: { ...(conversation as unknown as ConversationRecord), title: conversation.title.trim() === '' ? IMPORTED_TITLE : conversation.title },
    ...(settings ? { settings } : {}),
    turns: ordered,
  };
}

/** The title a conversation imported with a blank one is listed under. */
export const IMPORTED_TITLE = 'Imported conversation';

/** The same limits `conversations:update-settings` puts on these fields (src/main/ipc/schemas.ts). */
function checkSettings(value: unknown, where: string): ConversationSettings | undefined {
  if (value === undefined) return undefined;
  if (
    !isObject(value) ||
    typeof value.systemPrompt !== 'string' ||
    // Code points, as the schema's maxLength counts them.
    (value.systemPrompt.length > 200_000 && Array.from(value.systemPrompt).length > 200_000) ||
    !(value.think === null || (typeof value.think === 'string' && (THINK_MODES as readonly string[]).includes(value.think))) ||
    typeof value.tools !== 'boolean'
  ) {
    throw invalid(`${where}its chat settings (system prompt, think mode, tools) are malformed`);
  }
  return { systemPrompt: value.systemPrompt, think: value.think as ConversationSettings['think'], tools: value.tools };
}

/** What the user reads for the first field that failed (the schema's own wording is for developers). */
const TURN_FIELD_PROBLEMS: Record<string, string> = {
  blocks: 'has malformed content',
  status: 'has an unknown status',
  role: 'has an unknown role',
  id: 'has no id',
  parentId: 'has a malformed parent',
  createdAt: 'has no time',
};

/** Compiled with the first file checked, not when the app starts (it took ~50 ms of every start, bench/start). */
let turnValidator: ValidateFunction | undefined;

function checkTurn(t: unknown, i: number, conversationId: string, where: string): Turn {
  const bad = (what: string) => invalid(`${where}message ${i + 1} ${what}`);
  if (!isObject(t)) throw bad('is not an object');
  const validateTurn = (turnValidator ??= new Ajv({ allErrors: false, strict: true }).compile(importedTurnSchema));
  if (!validateTurn(t)) {
    const first = validateTurn.errors?.[0];
    const missing = first?.params['missingProperty'];
    const field = first?.instancePath.split('/')[1] || (typeof missing === 'string' ? missing : '');
    throw bad(TURN_FIELD_PROBLEMS[field] ?? (field ? `has a malformed ${field}` : 'is missing a field'));
  }
  if (t.conversationId !== conversationId) throw bad('belongs to another conversation');
  return t as unknown as Turn;
}

function checkBlobs(value: unknown): ConversationFile['blobs'] {
  if (value === undefined) return {};
  if (!isObject(value)) throw invalid('its attachments are malformed');
  const out: ConversationFile['blobs'] = {};
  for (const [digest, blob] of Object.entries(value)) {
    if (!/^[0-9a-f]{64}$/.test(digest) || !isObject(blob) || typeof blob.base64 !== 'string' || typeof blob.mime !== 'string') {
      throw invalid('an attachment is malformed');
    }
    out[digest] = { mime: blob.mime, size: typeof blob.size === 'number' ? blob.size : 0, base64: blob.base64 };
  }
  return out;
}

/** Orders turns so each parent precedes its children; a parent outside the file or a cycle is refused. */
function parentsFirst(turns: Turn[], where: string): Turn[] {
  const ids = new Set<string>();
  const children = new Map<string | null, Turn[]>();
  for (const t of turns) {
    if (ids.has(t.id)) throw invalid(`${where}two messages share an id`);
    ids.add(t.id);
    const list = children.get(t.parentId) ?? [];
    list.push(t);
    children.set(t.parentId, list);
  }
  const out: Turn[] = [];
  const queue = [...(children.get(null) ?? [])];
  for (let i = 0; i < queue.length; i++) {
    const turn = queue[i]!;
    out.push(turn);
    queue.push(...(children.get(turn.id) ?? []));
  }
  if (out.length !== turns.length) throw invalid(`${where}some messages reply to messages that are not in the file`);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** What Import reads, said of any file that is not one (a picture, a PDF, JSON of another kind). */
const NOT_AN_EXPORT = 'it is not a conversation export; Firebrand imports the .firebrand.json files that Export and Export all save';

/** Whether JSON.parse's `err` for `json` is at its end (it says the end, or a position there): the text stops short. */
function stopsShort(json: string, err: unknown): boolean {
  const said = err instanceof Error ? err.message : String(err);
  if (/end of (JSON )?input/i.test(said)) return true;
  const at = /at position (\d+)/.exec(said);
  return at !== null && Number(at[1]) >= json.trimEnd().length;
}

/**
 * An attachment checked as an upload is; refused, it is the file that is refused: the upload's words alone ("“a.png”
 * cannot be attached: …") named neither the file being imported nor said that nothing was imported.
 */
function checkedAttachment(bytes: Buffer, name: string, mime: string): ReturnType<typeof checkAttachment> {
  try {
    return checkAttachment(bytes, { name, mime });
  } catch (err) {
    if (!(err instanceof UserFacingError)) throw err;
    throw new Refusal((file) => `${file} cannot be imported: one of its attachments is refused. ${err.message} Nothing was imported.`);
  }
}

/** A refusal of the file, worded for whichever file it is ("This file" where its name is not known). */
class Refusal extends UserFacingError {
  constructor(readonly says: (file: string) => string) {
    super('invalid-payload', says('This file'));
  }
}

function invalid(why: string): Refusal {
  return new Refusal((file) => `${file} cannot be imported: ${why}. Nothing was imported.`);
}

/**
 * Runs a check whose refusals name the file: they said "This file cannot be imported…", and with a picture picked
 * by mistake, or several files imported one after another, the notice did not say which file it meant.
 */
function namingTheFile<T>(name: string | undefined, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof Refusal && name) throw new UserFacingError('invalid-payload', err.says(`“${name}”`));
    throw err;
  }
}
