/**
 * What a file's chip and its preview say about how the file goes to the model: its token figure and how it was
 * come by, a text whose encoding was guessed, an image scaled down. The chip says them on hover and to a screen
 * reader; the preview, which a keyboard and a finger reach, shows them as text (they were hover titles alone, so
 * keyboard, touch and screen-reader users never got them). One wording for both places.
 */
import { ENCODING_LABEL, isGuessedCodePage, pageCountWords, rangeWords, type LegacyTextEncoding } from '../../../shared/attachment-text';
import { calibratedTokens } from '../../../shared/context-estimate';
import type { AttachmentInspection } from '../../../shared/ipc';
import { formatBytes, formatTokens } from '../../format';

/**
 * What a chip says a file costs: the server's count as it is; an estimate scaled by what the server counted for
 * this model (`ratio`), as the meter and a refusal's "largest parts" scale it, so the chip and the refusal naming
 * the same file say the same number (context audit #5: the chip said ~1.2K where the refusal said 4,100).
 */
export function shownTokens(inspection: { tokens: number; tokensSource: 'exact' | 'estimate' }, ratio: number): number {
  return inspection.tokensSource === 'exact' ? inspection.tokens : calibratedTokens(inspection.tokens, ratio);
}

/** "~1.2K tokens · 3 pages", "1,234 tokens · page 3 of 40": the chip's figure ("~" where it is an estimate). */
export function tokensFigure(i: AttachmentInspection, ratio: number): string {
  const pages = i.pages ? ` · ${rangeWords(i.pages)} of ${i.pageCount ?? '?'}` : i.pageCount ? ` · ${pageCountWords(i.pageCount)}` : '';
  return `${i.tokensSource === 'exact' ? '' : '~'}${formatTokens(shownTokens(i, ratio))} tokens${pages}`;
}

/**
 * What an image's picture says of it: its size ("1.2 MiB", in the units a file's chip uses) and, once main has
 * costed it for the model, what it takes of the window as the meter counts it ("~768 tokens"); null until then.
 */
export function imageFacts(size: number, inspection: AttachmentInspection | null, ratio: number): { size: string; tokens: string | null } {
  return { size: formatBytes(size), tokens: inspection ? tokensFigure(inspection, ratio) : null };
}

/** How the figure was come by, in full (the chip's hover, the preview): the server's tokenizer, or the estimate. */
export function tokensHow(source: 'exact' | 'estimate', ratio: number): string {
  if (source === 'exact') return 'counted by the server with the model’s tokenizer';
  return ratio === 1 ? 'estimated (about 4 characters per token)' : `estimated (about 4 characters per token, scaled ×${ratio.toFixed(1)} by the server’s counts)`;
}

/** The same in a word or two, where a screen reader meets the figure on the chip ("~" alone says nothing). */
export function tokensHowShort(source: 'exact' | 'estimate'): string {
  return source === 'exact' ? 'counted by the server' : 'estimated';
}

/**
 * What to do about a text read in a guessed encoding: not UTF-8 and no mark said what it was, so it was read in the
 * Windows code page its bytes look like (a French CSV from an old Windows tool as Windows-1252, a Japanese one as
 * Shift_JIS); a guess can be wrong. Null where nothing was guessed (UTF-8, or UTF-16 with its byte-order mark).
 */
export function encodingAdvice(encoding: LegacyTextEncoding | undefined): string | null {
  if (!isGuessedCodePage(encoding)) return null;
  return `Not UTF-8: read as ${ENCODING_LABEL[encoding]}, what older Windows programs save text as. If letters look wrong, save the file as UTF-8 and attach it again.`;
}

/** "sent as 1045×1568 (the original stays stored)" for an image scaled or turned before it goes; null otherwise. */
export function scaledWords(image: AttachmentInspection['image']): string | null {
  return image?.scaled ? `sent as ${image.width}×${image.height} (the original stays stored)` : null;
}

export function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
