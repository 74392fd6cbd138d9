/**
 * A document reaches every dialect as the same text (issue 18): its extracted text in one envelope, PDF pages
 * marked, the chosen pages only; never its compressed bytes, and nothing cut behind the user's back.
 */
import { describe, expect, it } from 'vitest';
import { anthropicDialect } from '../../../src/main/dialects/anthropic';
import { ollamaDialect } from '../../../src/main/dialects/ollama';
import { openaiDialect } from '../../../src/main/dialects/openai';
import { attachmentText, type DocumentText } from '../../../src/shared/attachment-text';
import type { AttachmentBlock, Turn } from '../../../src/shared/turn';
import type { AttachmentMaterializer } from '../../../src/main/dialects/shared/materialize';
import { PDF } from '../blobs/fixtures';

const doc: DocumentText = { format: 'pdf', pages: ['Alpha "one"', 'Beta\ttwo', 'x'.repeat(150_000)] };
const block: AttachmentBlock = { type: 'attachment', id: 'a'.repeat(64), kind: 'document', name: 'report.pdf', mime: 'application/pdf', size: 5_000_000 };
const turnWith = (b: AttachmentBlock): Turn => ({ id: 't', conversationId: 'c', parentId: null, role: 'user', blocks: [{ type: 'text', text: 'Summarize' }, b], meta: {}, status: 'done', createdAt: 1 });
const materialize: AttachmentMaterializer = (b) => ({ kind: 'text', text: attachmentText(b.name, doc, b.pages) });
const dialects = [ollamaDialect, openaiDialect, anthropicDialect];

describe('documents on the wire', () => {
  it('are their extracted text with page markers, whole, in every dialect (no silent cut at 32k/100k characters)', () => {
    const text = attachmentText('report.pdf', doc);
    expect(text).toContain('[page 3]');
    for (const d of dialects) {
      const body = JSON.stringify(d.encode({ model: 'm', turns: [turnWith(block)], stream: true, materialize }));
      expect(body, d.id).toContain(JSON.stringify(text).slice(1, -1));
      expect(body, d.id).not.toContain('truncated');
    }
  });

  it('carry only the pages the user chose', () => {
    const chosen = { ...block, pages: { from: 2, to: 2 } };
    for (const d of dialects) {
      const body = JSON.stringify(d.encode({ model: 'm', turns: [turnWith(chosen)], stream: true, materialize }));
      expect(body, d.id).toContain('pages=\\"2-2 of 3\\">\\n[page 2]\\nBeta\\ttwo\\n</file>');
      expect(body, d.id).not.toContain('[page 1]');
    }
  });

  it('are never sent as PDF bytes: without extracted text the model is told the text is not available', () => {
    for (const d of dialects) {
      const body = JSON.stringify(d.encode({ model: 'm', turns: [turnWith(block)], stream: true, resolveAttachment: () => PDF }));
      expect(body, d.id).toContain('[This file is not available: its text was not extracted]');
      expect(body, d.id).not.toContain('%PDF');
    }
  });
});
