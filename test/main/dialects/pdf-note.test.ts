/** Gap 5: a PDF never reaches the model as decoded compressed bytes, in any dialect: it gets a clear note. */
import { describe, expect, it } from 'vitest';
import { anthropicDialect } from '../../../src/main/dialects/anthropic';
import { ollamaDialect } from '../../../src/main/dialects/ollama';
import { openaiDialect } from '../../../src/main/dialects/openai';
import { pdfNote } from '../../../src/shared/attachment-notes';
import type { AttachmentBlock, Turn } from '../../../src/shared/turn';
import { PDF } from '../blobs/fixtures';

const block: AttachmentBlock = { type: 'attachment', id: 'a'.repeat(64), kind: 'document', name: 'report.pdf', mime: 'application/pdf', size: PDF.byteLength };
const turn: Turn = { id: 't', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'Summarize' }, block], meta: {}, status: 'done', createdAt: 1 };
const input = { model: 'm', turns: [turn], stream: true, resolveAttachment: () => PDF };
const NOTE = '[PDF "report.pdf" attached — its text could not be extracted]';

describe('PDF attachments', () => {
  it('are a note for Ollama, OpenAI-compatible servers and Anthropic', () => {
    expect(pdfNote('report.pdf')).toBe(NOTE);
    const ollama = JSON.stringify(ollamaDialect.encode(input));
    const openai = JSON.stringify(openaiDialect.encode(input));
    const anthropic = JSON.stringify(anthropicDialect.encode(input));
    for (const body of [ollama, openai, anthropic]) {
      expect(body).toContain(JSON.stringify(NOTE).slice(1, -1));
      expect(body).not.toContain('%PDF');
    }
  });
});
