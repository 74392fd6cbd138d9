import { memo, useId, type ReactNode } from 'react';
import { ENCODING_LABEL, isGuessedCodePage } from '../../../shared/attachment-text';
import type { AttachmentInspection } from '../../../shared/ipc';
import type { AttachmentBlock } from '../../../shared/turn';
import { useStore } from '../../store';
import { useCost, type CostState } from '../../store/attachment-costs';
import { openPreview } from './AttachmentPreview';
import { capitalized, encodingAdvice, imageFacts, scaledWords, shownTokens, tokensFigure, tokensHow, tokensHowShort } from './attachment-facts';
import { captionLines, fileNameEnds } from './file-name-ends';
import { useImageUrl } from './use-image-url';

import { formatBytes, formatTokens } from '../../format';

export { formatBytes, formatTokens, shownTokens };

/**
 * `data-tokens` / `data-tokens-source` once main has measured the attachment (docs/test-ids.md): the count as main
 * measured it; `data-tokens-shown` the number the chip says (see `shownTokens`).
 */
function costAttributes(cost: CostState | undefined, ratio = 1): Record<string, string | number> {
  if (cost?.status !== 'done' || cost.inspection.error) return {};
  return { 'data-tokens': cost.inspection.tokens, 'data-tokens-source': cost.inspection.tokensSource, 'data-tokens-shown': shownTokens(cost.inspection, ratio) };
}

/** Letters on a line under a sent picture (96 px of 12 px text): its name's end goes on a line of its own. */
const CAPTION_LINE = 14;

/** An image's picture, which opens it large; with `caption` (a sent message's), its name and size under it. */
function Thumbnail({ block, caption = false }: { block: AttachmentBlock; caption?: boolean }) {
  const ratio = useStore((s) => s.contextChoice?.estimateRatio ?? 1);
  return <ThumbnailView block={block} cost={useCost(block)} ratio={ratio} url={useImageUrl(block.id)} caption={caption} />;
}

/** The picture given its cost state and object URL (pure: tests render it). `describedBy`: more said with its button. */
export function ThumbnailView({ block, cost, ratio = 1, url, caption, describedBy }: { block: AttachmentBlock; cost: CostState | undefined; ratio?: number; url: string | null | undefined; caption: boolean; describedBy?: string }) {
  const scaled = scaledWords(cost?.status === 'done' ? cost.inspection.image : null);
  const id = useId();
  const facts = imageFacts(block.size, cost?.status === 'done' && !cost.inspection.error ? cost.inspection : null, ratio);
  // The hover says it all at once: the whole name (the caption may cut it), its size and cost, how it goes.
  const title = [block.name, facts.size, facts.tokens, scaled].filter(Boolean).join(' · ');
  const described = [caption ? `${id}-size` : '', describedBy ?? '', scaled ? `${id}-scaled` : ''].filter(Boolean).join(' ');
  return (
    <figure className={`thumb-figure${caption ? ' captioned' : ''}`} data-testid="attachment" data-kind="image" title={title} {...costAttributes(cost, ratio)}>
      <span className="thumb">
        <button type="button" className="thumb-open" data-testid="attachment-open" aria-label={`Open ${block.name}`} aria-describedby={described || undefined} disabled={url === null} onClick={() => openPreview(block)}>
          {url ? <img src={url} alt={block.name} /> : <span className="thumb-missing">{url === null ? 'Image unavailable' : '…'}</span>}
        </button>
      </span>
      {/* A chat of many pictures: which is which, and how large, under each (a sent PDF's chip says the same). */}
      {caption && (
        <figcaption className="thumb-caption" data-testid="attachment-caption">
          <span className="thumb-name" data-testid="attachment-name">
            {captionLines(block.name, CAPTION_LINE).map((text, i) => text !== '' && <span key={i}>{text}</span>)}
          </span>
          <span className="thumb-size" id={`${id}-size`}>
            {facts.size}
          </span>
        </figcaption>
      )}
      {/* The size it goes at was a hover title alone: said with the button here, shown in the preview. */}
      {scaled && (
        <span className="sr-only" id={`${id}-scaled`}>
          {capitalized(scaled)}.
        </span>
      )}
    </figure>
  );
}

/** A name cut in the middle where it must (file-name-ends.ts), its extension kept in sight; whole in its hover. */
function NameEnds({ name, className }: { name: string; className: string }) {
  const [head, tail] = fileNameEnds(name);
  return (
    <span className={className} data-testid="attachment-name" title={name}>
      <span className="chip-name-head">{head}</span>
      {tail !== '' && <span className="chip-name-tail">{tail}</span>}
    </span>
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

/**
 * The chip's kind: the type's name, or for text of a type without one its extension ("a.py" said TXT, as did
 * every source file a user attaches: .ts, .rs, .go, .yaml); a file with no extension stays TXT.
 */
export function kindLabel(block: Pick<AttachmentBlock, 'kind' | 'mime' | 'name'>): string {
  const known = KIND_LABEL[block.mime];
  if (known) return known;
  if (block.kind !== 'text') return 'FILE';
  const ext = /\.([a-z0-9]{1,5})$/i.exec(block.name)?.[1];
  return ext ? ext.toUpperCase() : 'TXT';
}

/** What the chip says about cost: tokens as sent (exact or estimated), reading, or why the text cannot be read. */
function CostLine({ cost, ratio }: { cost: CostState | undefined; ratio: number }) {
  if (!cost || cost.status === 'reading') return <span className="chip-tokens reading">reading…</span>;
  if (cost.status === 'failed') return <span className="chip-error" data-testid="attachment-error">{cost.message}</span>;
  const { inspection: i } = cost;
  if (i.error) return <span className="chip-error" data-testid="attachment-error">{i.error}</span>;
  return (
    <>
      <TokensLine inspection={i} ratio={ratio} />
      {isGuessedCodePage(i.encoding) && (
        // Not UTF-8 and no mark says what it is: the reading is a guess the user should know of. What to do about it
        // is said in the preview, as text; here it is the hover.
        <span className="chip-encoding" data-testid="attachment-encoding" title={encodingAdvice(i.encoding) ?? undefined}>
          <span aria-hidden="true">·</span> read as {ENCODING_LABEL[i.encoding]}
        </span>
      )}
    </>
  );
}

function TokensLine({ inspection: i, ratio }: { inspection: AttachmentInspection; ratio: number }) {
  return (
    <span className="chip-tokens" title={capitalized(tokensHow(i.tokensSource, ratio))}>
      {tokensFigure(i, ratio)}
      {/* A "~" said nothing to a screen reader, and the hover nothing to anyone else (the preview shows it in full). */}
      <span className="sr-only">, {tokensHowShort(i.tokensSource)}.</span>
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
  const id = useId();
  // Cut in the middle when the chip is too narrow for it, its extension and the letters before it kept in sight.
  const [head, tail] = fileNameEnds(block.name);
  // The name is the button's name (what a voice user says, what is seen); what it does and what the file costs
  // describe it, so a Tab to it says them too. They were in its title, which only a mouse ever showed.
  return (
    <span className={`chip${failed ? ' failed' : ''}${children ? ' with-extra' : ''}`} data-testid="attachment" data-kind={block.kind} {...costAttributes(cost, ratio)}>
      <span className="chip-row">
        <span className="chip-kind">{kindLabel(block)}</span>
        <button
          type="button"
          className="chip-name"
          data-testid="attachment-open"
          title={`${block.name}: show the text the model reads`}
          // The name whole, as one word: read from its two parts, a screen reader could say them as two.
          aria-label={block.name}
          aria-describedby={failed ? `${id}-cost` : `${id}-does ${id}-cost`}
          onClick={() => openPreview(block)}
          disabled={failed}
        >
          <span className="chip-name-head">{head}</span>
          {tail !== '' && <span className="chip-name-tail">{tail}</span>}
        </button>
        {!failed && (
          <span className="sr-only" id={`${id}-does`}>
            Shows the text the model reads.
          </span>
        )}
        <span className="chip-size">{formatBytes(block.size)}</span>
        {onRemove && (
          <button type="button" className="chip-remove" aria-label={`Remove ${block.name}`} onClick={onRemove}>
            ×
          </button>
        )}
      </span>
      <span className="chip-row" id={`${id}-cost`}>
        <CostLine cost={cost} ratio={ratio} />
      </span>
      {children}
    </span>
  );
}

/**
 * An image waiting to go (the composer's, or a message's being edited): its picture, its name, its size and what it
 * costs of the window as the meter counts it, with its remove button. A bare picture told three screenshots apart
 * only once each was opened, and said nothing of what they cost.
 */
export function RemovableThumb({ block, onRemove }: { block: AttachmentBlock; onRemove: () => void }) {
  const ratio = useStore((s) => s.contextChoice?.estimateRatio ?? 1);
  return <RemovableThumbView block={block} cost={useCost(block)} ratio={ratio} url={useImageUrl(block.id)} onRemove={onRemove} />;
}

/** The waiting image given its cost state and object URL (pure: tests render it). */
export function RemovableThumbView({ block, cost, ratio = 1, url, onRemove }: { block: AttachmentBlock; cost: CostState | undefined; ratio?: number; url: string | null | undefined; onRemove: () => void }) {
  const id = useId();
  const inspection = cost?.status === 'done' && !cost.inspection.error ? cost.inspection : null;
  return (
    <span className="pending-thumb">
      <ThumbnailView block={block} cost={cost} ratio={ratio} url={url} caption={false} describedBy={`${id}-facts`} />
      <span className="thumb-facts">
        <NameEnds name={block.name} className="thumb-name" />
        <span className="thumb-cost" id={`${id}-facts`}>
          <span className="chip-size">{formatBytes(block.size)}</span>
          {inspection && (
            <>
              <span className="chip-tokens" aria-hidden="true">
                {' · '}
              </span>
              <TokensLine inspection={inspection} ratio={ratio} />
            </>
          )}
        </span>
      </span>
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
        return remove ? <RemovableThumb key={`${b.id}:${i}`} block={b} onRemove={remove} /> : <Thumbnail key={`${b.id}:${i}`} block={b} caption />;
      })}
    </div>
  );
});

export { Thumbnail };
