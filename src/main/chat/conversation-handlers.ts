/**
 * The channels of conversations, their messages and their attachments: list, open, rename, delete, search,
 * import and export, send, stop, regenerate, edit, branches, and the attachments a message carries.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { AliasRefs } from '../aliases/alias-refs';
import { collect, conversationBlobs } from '../blobs/blob-gc';
import type { BlobStore } from '../blobs/blob-store';
import { servedType } from '../blobs/sniff';
import { tokenCounterFor } from '../connections/token-counter';
import type { ConversationSettingsStore } from '../db/conversation-settings';
import type { ConversationStore } from '../db/conversation-store';
import type { DraftStore } from '../db/draft-store';
import type { SearchStore } from '../db/search';
import type { SettingsStore } from '../db/settings-store';
import type { AttachmentContent } from '../documents/attachment-content';
import { UserFacingError } from '../errors';
import type { EmitEvent } from '../events';
import { importConversation } from '../export/conversation-io';
import { exportAllFile } from '../export/export-all';
import { branchDocuments, exportFile } from '../export/export-file';
import { ImportUploads } from '../export/import-uploads';
import type { InvokeHandlers } from '../ipc/dispatch';
import type { ImportResult } from '../../shared/ipc';
import { SEARCH_PAGE } from '../../shared/search-ipc';
import type { ChatParts } from './chat-wiring';
import { conversationView, toSearchResult } from './conversation-view';

type ConversationChannel =
  | 'conversations:list' | 'conversations:open' | 'conversations:delete' | 'conversations:get-settings'
  | 'conversations:update-settings' | 'conversations:rename' | 'conversations:export' | 'conversations:export-all' | 'conversations:import'
  | 'conversations:import-begin' | 'conversations:import-chunk' | 'conversations:import-finish'
  | 'conversations:import-cancel' | 'conversations:search' | 'conversations:switch-branch'
  | 'chat:send' | 'chat:stop' | 'chat:regenerate' | 'chat:edit-and-resend'
  | 'attachments:add' | 'attachments:get' | 'attachments:inspect' | 'attachments:preview'
  | 'drafts:list' | 'drafts:save' | 'drafts:save-new-chat-settings' | 'drafts:hold-edit-files';

export interface ConversationHandlersDeps {
  db: Database;
  store: ConversationStore;
  blobs: BlobStore;
  search: SearchStore;
  settings: SettingsStore;
  conversationSettings: ConversationSettingsStore;
  drafts: DraftStore;
  content: AttachmentContent;
  chat: ChatParts;
  refs: AliasRefs;
  emit: EmitEvent;
  log: (message: string) => void;
  /** Drops the extracted text kept beside attachments that are gone. */
  removeSidecars: (digests: readonly string[]) => Promise<void>;
}

export function createConversationHandlers(deps: ConversationHandlersDeps): Pick<InvokeHandlers, ConversationChannel> {
  const { db, store, blobs, search, settings, conversationSettings, drafts, content, refs, emit, log, removeSidecars } = deps;
  const chatParts = deps.chat;
  const chat = chatParts.chat;
  const importUploads = new ImportUploads({ newId: randomUUID });
  const importText = async ({ text, name }: { text: string; name?: string | undefined }): Promise<ImportResult> => {
    const { conversationId, title, imported, all, copies, listedAbove } = await importConversation({ db, store, blobs, newId: randomUUID }, text, Date.now(), name);
    emit('conversations:changed', { conversationId });
    return { conversationId, title, imported, all, copies, listedAbove };
  };
  return {
    'conversations:list': (page) => store.listConversations(page),
    'conversations:open': ({ conversationId, tail, before }) => conversationView(store, conversationId, tail, before, chatParts.engine),
    'conversations:delete': ({ conversationId, keepIfWrittenAfter }) => {
      // A message written in it after the page listed what it deleted (in another window, during the undo window)
      // is not deleted with it: the several-tabs hunt lost a reply that way.
      if (keepIfWrittenAfter !== undefined && store.userWroteAfter(conversationId, keepIfWrittenAfter)) return { deleted: false, writtenSince: true };
      // The renderer's undo window is over: this delete is for good, so its unique attachments go too.
      chat.stopConversation(conversationId);
      const released = conversationBlobs(db, conversationId);
      const deleted = store.deleteConversation(conversationId);
      emit('conversations:changed', { conversationId });
      if (deleted && released && released.digests.length > 0) void collect(blobs, log, { now: Date.now(), released }, removeSidecars);
      return { deleted };
    },
    'conversations:get-settings': ({ conversationId }) => conversationSettings.require(conversationId),
    'conversations:update-settings': ({ conversationId, systemPrompt, think, tools }) => conversationSettings.update(conversationId, { systemPrompt, think, ...(tools !== undefined ? { tools } : {}) }),
    'chat:send': (req) => {
      const result = chat.send(req);
      settings.update({ defaultModel: req.model });
      // The message is the draft it was typed in: were it kept, it would come back into the composer at the next start.
      // A new chat's settings go with it: they are that chat's now. (Continue sends a message of its own: the chat's
      // draft stays.)
      if (req.fromDraft) drafts.clear(req.conversationId);
      return result;
    },
    'conversations:rename': ({ conversationId, title }) => {
      const renamed = store.renameConversation(conversationId, title.trim() || 'New chat');
      emit('conversations:changed', { conversationId });
      return { renamed };
    },
    'conversations:export': async ({ conversationId, format }) => {
      // The Markdown holds each document's text: read (or taken from its sidecar) first, as a request would.
      if (format === 'markdown') await content.prepare(branchDocuments(store, conversationId));
      return exportFile({ db, store, blobs, live: chatParts.engine.live, documentText: content.documentText }, conversationId, format);
    },
    'conversations:export-all': () => exportAllFile({ db, store, blobs, live: chatParts.engine.live }, Date.now()),
    'conversations:import': ({ text, name }) => importText({ text, name }),
    'conversations:import-begin': ({ size, name }) => importUploads.begin(size, name),
    'conversations:import-chunk': ({ uploadId, offset, dataBase64 }) => importUploads.append(uploadId, offset, Buffer.from(dataBase64, 'base64')),
    'conversations:import-finish': ({ uploadId }) => importText(importUploads.take(uploadId)),
    'conversations:import-cancel': ({ uploadId }) => ({ cancelled: importUploads.cancel(uploadId) }),
    'conversations:search': ({ query, limit }) => {
      const { hits, newest, more } = search.find(query, limit ?? SEARCH_PAGE);
      return { results: hits.map(toSearchResult), ...(newest === undefined ? {} : { newest }), ...(more ? { more } : {}) };
    },
    'conversations:switch-branch': ({ turnId }) => {
      const turn = store.getTurn(turnId);
      if (!turn) throw new UserFacingError('not-found', 'That message no longer exists.');
      store.switchBranch(turnId);
      // Other windows and tabs showing the chat follow it (followOpenChat): one that kept the old version sent its
      // next message under the version main goes on from, not the one it showed (conversations audit D2).
      emit('conversations:changed', { conversationId: turn.conversationId });
      return conversationView(store, turn.conversationId);
    },
    'chat:stop': ({ turnId }) => ({ stopped: chat.stop(turnId) }),
    'chat:regenerate': (req) => chat.regenerate(req),
    'chat:edit-and-resend': (req) => chat.editAndResend(req),
    'attachments:add': ({ name, mime, dataBase64 }) => blobs.put(Buffer.from(dataBase64, 'base64'), { name, mime }, Date.now()),
    'attachments:get': ({ id }) => {
      const bytes = blobs.read(id);
      if (!bytes) throw new UserFacingError('not-found', 'That attachment is no longer stored.');
      // The type the renderer makes its blob URL with comes from the bytes, never from a stored claim.
      return { mime: servedType(bytes), dataBase64: Buffer.from(bytes).toString('base64') };
    },
    'attachments:inspect': ({ block, model, connectionId }) => {
      // The server the message would go to: an alias names its own connection.
      const connection = chatParts.engineConnection(refs.route(model)?.connectionId ?? connectionId);
      return content.inspect(block, { anthropic: connection.kind === 'anthropic', counter: tokenCounterFor(connection) });
    },
    'attachments:preview': async ({ block }) => ({ text: await content.preview(block) }),
    'drafts:list': () => drafts.list(),
    'drafts:save': ({ conversationId, text, attachments }) => ({ kept: drafts.save(conversationId, text, attachments, Date.now()) }),
    'drafts:save-new-chat-settings': ({ settings }) => ({ kept: drafts.saveNewChatSettings(settings, Date.now()) }),
    'drafts:hold-edit-files': ({ edits }) => ({ edits: drafts.holdEditFiles(edits, (digest) => blobs.has(digest)) }),
  };
}
