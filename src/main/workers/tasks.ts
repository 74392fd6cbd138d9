/**
 * The jobs main hands to a worker thread (src/main/workers/run-in-worker.ts): work whose cost grows with input
 * from the network, a model or a file, so that a hostile input can slow one job but never the event loop that
 * carries Stop, the other sockets and every other answer. Each task is a pure function of its input.
 */
import { checkConversationFile, type CheckedConversationFile } from '../export/file-format';
import { htmlToText } from '../tools/html-text';

export interface WorkerTasks {
  /** fetch_url's page text. */
  'html-to-text': { input: string; output: string };
  /** A large serve-mode socket frame (an import, an attachment): UTF-8 bytes -> the parsed JSON value. */
  'parse-json': { input: Uint8Array; output: unknown };
  /** An export file, checked whole; attachment bytes come back decoded and verified against their digest. Its refusals name it (`name`). */
  'check-conversation-file': { input: { text: string; name?: string | undefined }; output: CheckedConversationFile };
}

export type WorkerTaskName = keyof WorkerTasks;

export const workerTasks: { [K in WorkerTaskName]: (input: WorkerTasks[K]['input']) => WorkerTasks[K]['output'] } = {
  'html-to-text': (html) => htmlToText(html),
  'parse-json': (bytes) => JSON.parse(new TextDecoder('utf-8', { fatal: false }).decode(bytes)) as unknown,
  'check-conversation-file': ({ text, name }) => checkConversationFile(text, name),
};
