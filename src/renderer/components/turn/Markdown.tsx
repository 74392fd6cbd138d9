import { memo, useMemo, type MouseEvent } from 'react';
import { useMarkdownRenderer } from '../../markdown/lazy-render';
import { splitMarkdownBlocks } from '../../markdown/split-blocks';

/**
 * One finished chunk: its HTML is sanitized (markdown/render.ts) and cached, and it never re-renders. In the
 * moment before the markdown code has loaded (lazy-render.ts), it is the chunk's text as it came.
 */
const MarkdownChunk = memo(function MarkdownChunk({ text }: { text: string }) {
  const render = useMarkdownRenderer();
  if (!render) return <div className="md-chunk md-plain">{text}</div>;
  return <div className="md-chunk" dangerouslySetInnerHTML={{ __html: render(text) }} />;
});

/** Copy buttons live inside rendered HTML, so one delegated handler serves them all. */
function onClick(e: MouseEvent<HTMLDivElement>): void {
  const target = e.target instanceof Element ? e.target.closest('[data-copy-code]') : null;
  if (!target) return;
  const code = target.closest('pre')?.querySelector('code')?.textContent ?? '';
  void navigator.clipboard.writeText(code).then(() => {
    target.textContent = 'Copied';
    setTimeout(() => (target.textContent = 'Copy'), 1500);
  });
}

/**
 * An answer run as markdown. Work is limited to the growing tail: the text is cut into chunks and only the
 * last one changes while streaming, so a long answer costs one chunk per frame, not the whole answer.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const chunks = useMemo(() => splitMarkdownBlocks(text), [text]);
  return (
    <div className="markdown" onClick={onClick}>
      {chunks.map((chunk, i) => (
        <MarkdownChunk key={i} text={chunk} />
      ))}
    </div>
  );
});
