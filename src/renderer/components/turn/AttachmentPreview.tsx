import { useEffect, useId, useState } from 'react';
import { X } from 'lucide-react';
import { create } from 'zustand';
import { rangeWords, type PageRange } from '../../../shared/attachment-text';
import type { AttachmentBlock } from '../../../shared/turn';
import { firebrand } from '../../firebrand';
import { useStore } from '../../store';
import { useCost, type CostState } from '../../store/attachment-costs';
import { errorMessage } from '../../store/errors';
import { Modal } from '../frame/Modal';
import { capitalized, encodingAdvice, scaledWords, tokensFigure, tokensHow } from './attachment-facts';
import { useImageUrl } from './use-image-url';

/** Characters shown at once: a whole book in one <pre> would stall the page; the rest is counted, not hidden. */
const SHOWN = 200_000;

const usePreview = create<{ block: AttachmentBlock | null }>(() => ({ block: null }));

export function openPreview(block: AttachmentBlock): void {
  usePreview.setState({ block });
}

/** The note over a document's text: its pages if some were chosen, and that the text is what the model reads. */
export function previewNote(pages: PageRange | undefined): string {
  if (!pages) return 'Exactly as the model reads it';
  return `${capitalized(rangeWords(pages))}, exactly as the model reads it`;
}

/**
 * What the chip says on hover, as text for the preview, where a keyboard and a finger reach it: a document's token
 * figure and how it was come by, and what to do about a guessed encoding; the size a scaled image goes at. Null
 * while the file is read, where it cannot be, and for an image sent as it is.
 */
export function previewFacts(block: AttachmentBlock, cost: CostState | undefined, ratio: number): { line: string; advice: string | null } | null {
  if (cost?.status !== 'done' || cost.inspection.error) return null;
  const i = cost.inspection;
  if (block.kind === 'image') {
    const scaled = scaledWords(i.image);
    return scaled ? { line: `${capitalized(scaled)}.`, advice: null } : null;
  }
  return { line: `${tokensFigure(i, ratio)}, ${tokensHow(i.tokensSource, ratio)}.`, advice: encodingAdvice(i.encoding) };
}

/**
 * An attachment opened from its chip or thumbnail (`attachment-open`): an image large (a lightbox), a document
 * as the exact text the model will read (its pages as chosen), from main.
 */
export function AttachmentPreview() {
  const block = usePreview((s) => s.block);
  return block ? <PreviewDialog block={block} /> : null;
}

function PreviewDialog({ block }: { block: AttachmentBlock }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const url = useImageUrl(block.kind === 'image' ? block.id : null);
  const facts = previewFacts(block, useCost(block), useStore((st) => st.contextChoice?.estimateRatio ?? 1));
  const factsId = useId();
  useEffect(() => {
    setText(null);
    setError(null);
    if (block.kind === 'image') return;
    let live = true;
    firebrand()
      .attachments.preview({ block })
      .then((r) => live && setText(r.text))
      .catch((err: unknown) => live && setError(errorMessage(err)));
    return () => {
      live = false;
    };
  }, [block]);
  const close = () => usePreview.setState({ block: null });
  const image = block.kind === 'image';
  return (
    <Modal label={image ? block.name : `What the model reads for ${block.name}`} describedBy={facts ? factsId : undefined} testId="attachment-preview" className="preview" onClose={close}>
      <div className="modal-head">
        <h2>{block.name}</h2>
        <button type="button" className="icon-btn" aria-label="Close" title="Close (Esc)" onClick={close}>
          <X className="icon" aria-hidden />
        </button>
      </div>
      <div className="modal-body">
        {facts && (
          <div className="preview-facts" data-testid="preview-facts" id={factsId}>
            <p>{facts.line}</p>
            {facts.advice && <p className="preview-advice">{facts.advice}</p>}
          </div>
        )}
        {!image && (
          <p className="preview-note">
            {previewNote(block.pages)}
          </p>
        )}
        {error || (image && url === null) ? (
          <p className="chip-error">{error ?? 'This image cannot be shown.'}</p>
        ) : image ? (
          url ? <img className="lightbox-img" src={url} alt={block.name} /> : <p className="preview-note">Loading…</p>
        ) : text === null ? (
          <p className="preview-note">Reading…</p>
        ) : (
          <>
            <pre className="preview-text">{text.length > SHOWN ? text.slice(0, SHOWN) : text}</pre>
            {text.length > SHOWN && (
              <p className="preview-note">Showing the first {SHOWN.toLocaleString('en')} of {text.length.toLocaleString('en')} characters; the model gets all of them.</p>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
