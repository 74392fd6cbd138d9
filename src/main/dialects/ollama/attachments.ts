import { PDF_MIME, pdfNote } from '../../../shared/attachment-notes';
import type { AttachmentBlock } from '../../../shared/turn';

/**
 * Attachments ride by reference (DESIGN.md §5); the dialect materializes them at encode time. Images become
 * the wire's image form (the caller decides which); documents and text files become text inside a character
 * budget, so a huge file cannot silently eat the context window.
 */
export const ATTACHMENT_TEXT_BUDGET = 32_000;

export type MaterializedAttachment =
  | { kind: 'image'; base64: string; mime: string }
  | { kind: 'text'; text: string };

export function materializeAttachment(
  block: AttachmentBlock,
  resolve: ((id: string) => Uint8Array | undefined) | undefined,
  budget = ATTACHMENT_TEXT_BUDGET,
): MaterializedAttachment {
  const bytes = resolve?.(block.id);
  if (!bytes) return { kind: 'text', text: `[Attachment ${block.name} is no longer available.]` };
  if (block.kind === 'image') return { kind: 'image', base64: Buffer.from(bytes).toString('base64'), mime: block.mime };
  // No PDF text extractor ships with the app (issue 7 leaves it out): the model is told, not fed compressed bytes.
  if (block.mime === PDF_MIME) return { kind: 'text', text: pdfNote(block.name) };
  const full = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const body = full.length > budget ? `${full.slice(0, budget)}\n[... truncated: ${full.length - budget} more characters]` : full;
  return { kind: 'text', text: `[Attachment: ${block.name}]\n${body}` };
}
