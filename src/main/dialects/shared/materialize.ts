/**
 * Attachments ride by reference (DESIGN.md §5); the dialect materializes them at encode time. What an
 * attachment becomes is decided once, outside the dialects (src/main/documents/attachment-content.ts): an image
 * (possibly scaled down) or the exact text of a document, the pages the user chose included. The dialects only
 * wrap it in their wire's form, so every dialect sends the same text and the estimate counts that text.
 */
import { attachmentText, attachmentUnavailable } from '../../../shared/attachment-text';
import type { AttachmentBlock } from '../../../shared/turn';
import { extractorFor, plainText } from '../../documents/extractor-kind';

export type MaterializedAttachment =
  /** `digest` names the bytes inlined (a scaled copy's own digest), so the step store can keep them by reference. */
  | { kind: 'image'; base64: string; mime: string; digest: string; width?: number; height?: number }
  | { kind: 'text'; text: string };

export type AttachmentMaterializer = (block: AttachmentBlock) => MaterializedAttachment;

/**
 * The materializer for a bare byte resolver (the dialect tests, the replay command): images as stored, the text
 * kinds decoded as UTF-8; anything that needs extraction is said to be unavailable rather than sent as bytes.
 */
export function bytesMaterializer(resolve: ((id: string) => Uint8Array | undefined) | undefined): AttachmentMaterializer {
  return (block) => {
    const bytes = resolve?.(block.id);
    if (!bytes) return { kind: 'text', text: attachmentUnavailable(block.name, 'it is no longer stored') };
    if (block.kind === 'image') return { kind: 'image', base64: Buffer.from(bytes).toString('base64'), mime: block.mime, digest: block.id };
    if (extractorFor(block.mime) === 'text') return { kind: 'text', text: attachmentText(block.name, plainText(bytes)) };
    return { kind: 'text', text: attachmentUnavailable(block.name, 'its text was not extracted') };
  };
}

/** The materializer an encode uses: the caller's, else one over its byte resolver. */
export function materializerOf(input: { materialize?: AttachmentMaterializer; resolveAttachment?: (id: string) => Uint8Array | undefined }): AttachmentMaterializer {
  return input.materialize ?? bytesMaterializer(input.resolveAttachment);
}
