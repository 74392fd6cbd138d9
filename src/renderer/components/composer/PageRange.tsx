import { useEffect, useId, useRef, useState } from 'react';
import { ANSWER_ROOM } from '../../../shared/context-estimate';
import { formatRange, pagesThatFit, parsePageRange, rangeWords, type PageRange } from '../../../shared/attachment-text';
import type { AttachmentInspection } from '../../../shared/ipc';
import type { AttachmentBlock } from '../../../shared/turn';
import { formatTokens } from '../../format';
import type { Room } from './window-room';

export { ANSWER_ROOM };

/**
 * Under a PDF's chip when it does not fit what is left of the window (or pages were chosen): how much fits, and
 * a field for the pages to send. Nothing is cut without the user choosing it: the chip then counts those pages.
 */
export function PageRangeRow({
  block,
  inspection,
  room,
  onPages,
}: {
  block: AttachmentBlock;
  inspection: AttachmentInspection;
  /**
   * What is left of the window for this attachment (window-room.ts): `left` and `forPages` in the rule's scale,
   * `inWindow` in the model's tokens, which a count the server made is in.
   */
  room: Pick<Room, 'left' | 'forPages'> & { inWindow?: number };
  onPages: (pages: PageRange | undefined) => void;
}) {
  const pages = inspection.pageCount;
  const pageChars = inspection.pageChars;
  const [draft, setDraft] = useState(block.pages ? formatRange(block.pages) : '');
  const [problem, setProblem] = useState<string | null>(null);
  const row = useRef<HTMLSpanElement>(null);
  const problemId = useId();
  const shown = pages !== null && pageChars !== null && inspection.error === null;
  // A count the server made with the model's tokenizer is compared with what is left in the model's tokens; the rule's
  // estimate with the rule's scale. Compared with the rule's, a PDF llama-server counted was said not to fit where it did.
  const left = inspection.tokensSource === 'exact' && room.inWindow !== undefined ? room.inWindow : room.left;
  const over = inspection.tokens > left;
  // The files waiting to be sent scroll in a box of their own: on a phone, with a file or two above it, the field to
  // choose pages in opened below its fold, out of sight, while the reason under the box pointed to it (documents audit #4).
  useEffect(() => {
    if (shown && over) row.current?.scrollIntoView({ block: 'nearest' });
  }, [shown, over]);
  if (!shown) return null;
  if (!over && !block.pages) return null;
  const fit = pagesThatFit(block.name, pageChars, room.forPages);
  const apply = (text: string) => {
    const parsed = parsePageRange(text, pages);
    if (typeof parsed === 'string') return setProblem(parsed);
    setProblem(null);
    setDraft(formatRange(parsed));
    onPages(parsed.from === 1 && parsed.to === pages ? undefined : parsed);
  };
  const budgetText = `${formatTokens(left)} tokens left`;
  const example = fit ? formatRange(fit) : exampleRange(pages);
  return (
    <span ref={row} className="chip-pages" role="group" aria-label={`Pages of ${block.name} to send`}>
      <span className={over ? 'chip-fit over' : 'chip-fit'}>
        {over
          ? fit
            ? `Too long for the window (${budgetText}): ${rangeWords(fit)} of ${pages} ${fit.to === 1 ? 'fits' : 'fit'} with room for the answer.`
            : `Not even page 1 fits (${budgetText}).`
          : `Sending ${block.pages ? rangeWords(block.pages) : 'all pages'} of ${pages}.`}
      </span>
      <span className="chip-row">
        <label>
          Pages{' '}
          <input
            data-testid="attachment-pages"
            aria-label={`Pages of ${block.name} to send, like ${example}`}
            inputMode="numeric"
            placeholder={example}
            value={draft}
            size={7}
            // A range refused (pages the file lacks) is said as it comes and tied to the field: it was red text a
            // screen reader never read, and the field did not say it was wrong.
            aria-invalid={problem !== null}
            aria-describedby={problem === null ? undefined : problemId}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
                e.preventDefault();
                apply(draft);
              }
            }}
            onBlur={() => draft.trim() !== '' && apply(draft)}
          />
        </label>
        {fit && over && (
          <button type="button" onClick={() => apply(formatRange(fit))}>
            Send {rangeWords(fit)}
          </button>
        )}
        {block.pages && (
          <button
            type="button"
            onClick={() => {
              setDraft('');
              onPages(undefined);
            }}
          >
            All pages
          </button>
        )}
      </span>
      {problem && (
        <span className="chip-error" id={problemId} role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}

/** A range the document has, to show how one is written: "1-3" offered a 2-page PDF pages it lacks (attachments audit #2). */
function exampleRange(pages: number): string {
  return formatRange({ from: 1, to: Math.max(1, Math.min(3, pages)) });
}
