import { memo, type ReactNode } from 'react';
import { ENCODING_LABEL, pageCountWords, rangeWords } from '../../../shared/attachment-text';
import { calibratedTokens } from '../../../shared/context-estimate';
import type { AttachmentInspection } from '../../../shared/ipc';
import type { AttachmentBlock } from '../../../shared/turn';
import { useStore } from '../../store';
import { useCost, type CostState } from '../../store/attachment-costs';
import { openPreview } from './AttachmentPreview';
import { useImageUrl } from './use-image-url';

import { formatBytes, formatTokens } from '../../format';

export { formatBytes, formatTokens };

/**
 * `data-tokens` / `data-tokens-source` once main has measured the attachment (docs/test-ids.md): the count as main
 * measured it; `data-tokens-shown` the number the chip says (see `shownTokens`).
 */
function costAttributes(cost: CostState | undefined, ratio = 1): Record<string, string | number> {
  if (cost?.status !== 'done' || cost.inspection.error) return {};
  return { 'data-tokens': cost.inspection.tokens, 'data-tokens-source': cost.inspection.tokensSource, 'data-tokens-shown': shownTokens(cost.inspection, ratio) };
}

/**
 * What a chip says a file costs: the server's count as it is; an estimate scaled by what the server counted for
 * this model (`ratio`), as the meter and a refusal's "largest parts" scale it, so the chip and the refusal naming
 * the same file say the same number (context audit #5: the chip said ~1.2K where the refusal said 4,100).
 */
export function shownTokens(inspection: { tokens: number; tokensSource: 'exact' | 'estimate' }, ratio: number): number {
  return inspection.tokensSource === 'exact' ? inspection.tokens : calibratedTokens(inspection.tokens, ratio);
}

function Thumbnail({ block }: { block: AttachmentBlock }) {
  const url = useImageUrl(block.id);
  const cost = useCost(block);
  const image = cost?.status === 'done' ? cost.inspection.image : null;
  const title = image?.scaled ? `${block.name}: sent as ${image.width}×${image.height} (the original stays stored)` : block.name;
  return (
    <figure className="thumb" data-testid="attachment" data-kind="image" title={title} {...costAttributes(cost)}>
      <button type="button" className="thumb-open" data-testid="attachment-open" aria-label={`Open ${block.name}`} disabled={url === null} onClick={() => openPreview(block)}>
        {url ? <img src={url} alt={block.name} /> : <span className="thumb-missing">{url === null ? 'Image unavailable' : '…'}</span>}
      </button>
    </figure>
  );
}

const KIND_LABEL: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WEBP',
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'text/html': 'HTML',
  'text/markdown': 'MD',
  'text/csv': 'CSV',
  'application/json': 'JSON',
};

/** What the chip says about cost: tokens as sent (exact or estimated), reading, or why the text cannot be read. */
function CostLine({ cost, ratio }: { cost: CostState | undefined; ratio: number }) {
  if (!cost || cost.status === 'reading') return <span className="chip-tokens reading">reading…</span>;
  if (cost.status === 'failed') return <span className="chip-error" data-testid="attachment-error">{cost.message}</span>;
  const { inspection: i } = cost;
  if (i.error) return <span className="chip-error" data-testid="attachment-error">{i.error}</span>;
  return (
    <>
      <TokensLine inspection={i} ratio={ratio} />
      {i.encoding === 'windows-1252' && (
        // Not UTF-8 and no mark says what it is: the reading is a guess the user should know of (a French CSV from an old
        // Windows tool reads right; a file in another code page would read with wrong letters).
        <span
          className="chip-encoding"
          data-testid="attachment-encoding"
          title={`Not UTF-8: read as ${ENCODING_LABEL['windows-1252']}, what older Windows programs save text as. If letters look wrong, save the file as UTF-8 and attach it again.`}
        >
          · read as {ENCODING_LABEL['windows-1252']}
        </span>
      )}
    </>
  );
}

function TokensLine({ inspection: i, ratio }: { inspection: AttachmentInspection; ratio: number }) {
  const exact = i.tokensSource === 'exact';
  return (
    <span className="chip-tokens" title={exact ? 'Counted by the server with the model’s tokenizer' : ratio === 1 ? 'Estimated (about 4 characters per token)' : `Estimated (about 4 characters per token, scaled ×${ratio.toFixed(1)} by the server’s counts)`}>
      {exact ? '' : '~'}
      {formatTokens(shownTokens(i, ratio))} tokens{i.pages ? ` · ${rangeWords(i.pages)} of ${i.pageCount ?? '?'}` : i.pageCount ? ` · ${pageCountWords(i.pageCount)}` : ''}
    </span>
  );
}

/**
 * A file attachment as a chip: kind, name (text, never markup), what it costs as sent, and why it cannot be read
 * when it cannot. Clicking the name shows the text the model will read. `children` (the composer's page-range
 * row) sits under it.
 */
export function FileChip(props: { block: AttachmentBlock; onRemove?: () => void; children?: ReactNode }) {
  const ratio = useStore((s) => s.contextChoice?.estimateRatio ?? 1);
  return <FileChipView {...props} cost={useCost(props.block)} ratio={ratio} />;
}

/** The chip itself, given its cost state and the model's estimate ratio (pure: tests render it). */
export function FileChipView({ block, cost, ratio = 1, onRemove, children }: { block: AttachmentBlock; cost: CostState | undefined; ratio?: number; onRemove?: () => void; children?: ReactNode }) {
  const failed = (cost?.status === 'done' && cost.inspection.error !== null) || cost?.status === 'failed';
  return (
    <span className={`chip${failed ? ' failed' : ''}${children ? ' with-extra' : ''}`} data-testid="attachment" data-kind={block.kind} {...costAttributes(cost, ratio)}>
      <span className="chip-row">
        <span className="chip-kind">{KIND_LABEL[block.mime] ?? (block.kind === 'text' ? 'TXT' : 'FILE')}</span>
        <button type="button" className="chip-name" data-testid="attachment-open" title={`${block.name}: show the text the model reads`} onClick={() => openPreview(block)} disabled={failed}>
          {block.name}
        </button>
        <span className="chip-size">{formatBytes(block.size)}</span>
        {onRemove && (
          <button type="button" className="chip-remove" aria-label={`Remove ${block.name}`} onClick={onRemove}>
            ×
          </button>
        )}
      </span>
      <span className="chip-row">
        <CostLine cost={cost} ratio={ratio} />
      </span>
      {children}
    </span>
  );
}

/** An image waiting to go (the composer's, or a message's being edited), with its remove button. */
export function RemovableThumb({ block, onRemove }: { block: AttachmentBlock; onRemove: () => void }) {
  return (
    <span className="pending-thumb">
      <Thumbnail block={block} />
      <button type="button" className="chip-remove" aria-label={`Remove ${block.name}`} onClick={onRemove}>
        ×
      </button>
    </span>
  );
}

/** A message's files; with `onRemove`, each has a remove button (a message being edited). */
export const Attachments = memo(function Attachments({ blocks, onRemove }: { blocks: AttachmentBlock[]; onRemove?: (index: number) => void }) {
  if (blocks.length === 0) return null;
  return (
    <div className={`attachments${onRemove ? ' pending' : ''}`} data-testid={onRemove ? 'edit-attachments' : undefined}>
      {blocks.map((b, i) => {
        const remove = onRemove ? () => onRemove(i) : undefined;
        if (b.kind !== 'image') return <FileChip key={`${b.id}:${i}`} block={b} {...(remove ? { onRemove: remove } : {})} />;
        return remove ? <RemovableThumb key={`${b.id}:${i}`} block={b} onRemove={remove} /> : <Thumbnail key={`${b.id}:${i}`} block={b} />;
      })}
    </div>
  );
});

export { Thumbnail };
