import { useEffect, useState } from 'react';
import { create } from 'zustand';
import type { AttachmentBlock } from '../../../shared/turn';
import { firebrand } from '../../firebrand';
import { errorMessage } from '../../store/errors';

/** Characters shown at once: a whole book in one <pre> would stall the page; the rest is counted, not hidden. */
const SHOWN = 200_000;

const usePreview = create<{ block: AttachmentBlock | null }>(() => ({ block: null }));

export function openPreview(block: AttachmentBlock): void {
  usePreview.setState({ block });
}

/** The exact text the model will read for a document (its pages as chosen), from main. */
export function AttachmentPreview() {
  const block = usePreview((s) => s.block);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setText(null);
    setError(null);
    if (!block) return;
    let live = true;
    firebrand()
      .attachments.preview({ block })
      .then((r) => live && setText(r.text))
      .catch((err: unknown) => live && setError(errorMessage(err)));
    return () => {
      live = false;
    };
  }, [block]);
  if (!block) return null;
  const close = () => usePreview.setState({ block: null });
  return (
    <div className="modal-backdrop" onClick={close}>
      <div
        className="modal preview"
        role="dialog"
        aria-modal="true"
        aria-label={`What the model reads for ${block.name}`}
        data-testid="attachment-preview"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === 'Escape' && close()}
      >
        <div className="preview-head">
          <h2>{block.name}</h2>
          <span className="preview-note">
            {block.pages ? `pages ${block.pages.from}–${block.pages.to}, ` : ''}exactly as the model reads it
          </span>
          <button type="button" onClick={close} autoFocus>
            Close
          </button>
        </div>
        {error ? (
          <p className="chip-error">{error}</p>
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
    </div>
  );
}
