import { pdfNote } from '../../../shared/attachment-notes';
import { memo, useEffect, useState } from 'react';
import type { AttachmentBlock } from '../../../shared/turn';
import { cachedImageUrl, imageUrl } from '../../store/attachments';

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

function Thumbnail({ block }: { block: AttachmentBlock }) {
  const [url, setUrl] = useState<string | null | undefined>(() => cachedImageUrl(block.id));
  useEffect(() => {
    if (url !== undefined) return;
    let live = true;
    void imageUrl(block.id).then((u) => live && setUrl(u));
    return () => {
      live = false;
    };
  }, [block.id, url]);
  return (
    <figure className="thumb" data-testid="attachment" data-kind="image" title={block.name}>
      {url ? <img src={url} alt={block.name} /> : <div className="thumb-missing">{url === null ? 'Image unavailable' : '…'}</div>}
    </figure>
  );
}

/** A file attachment as a chip: name (text, never markup), kind and size. */
export function FileChip({ block, onRemove }: { block: AttachmentBlock; onRemove?: () => void }) {
  const pdf = block.mime === 'application/pdf';
  return (
    <span className="chip" data-testid="attachment" data-kind={block.kind} title={pdf ? `The model gets only: ${pdfNote(block.name)}` : block.name}>
      <span className="chip-kind">{pdf ? 'PDF' : block.kind === 'text' ? 'TXT' : 'FILE'}</span>
      <span className="chip-name">{block.name}</span>
      {pdf && (
        <span className="chip-note" data-testid="attachment-note">
          text not extracted: the model gets only a note
        </span>
      )}
      <span className="chip-size">{formatBytes(block.size)}</span>
      {onRemove && (
        <button type="button" className="chip-remove" aria-label={`Remove ${block.name}`} onClick={onRemove}>
          ×
        </button>
      )}
    </span>
  );
}

export const Attachments = memo(function Attachments({ blocks }: { blocks: AttachmentBlock[] }) {
  if (blocks.length === 0) return null;
  return (
    <div className="attachments">
      {blocks.map((b) => (b.kind === 'image' ? <Thumbnail key={b.id} block={b} /> : <FileChip key={b.id} block={b} />))}
    </div>
  );
});

export { Thumbnail };
