import { memo, useRef } from 'react';
import { useFenceDrawer } from '../../markdown/lazy-render';
import type { FenceView, LinkReferences } from '../../markdown/render';
import { MarkdownChunk } from './MarkdownChunk';

/** A finished piece of a streaming code block: its HTML is set once and never drawn again. */
const CodePiece = memo(function CodePiece({ html }: { html: string }) {
  return <span dangerouslySetInnerHTML={{ __html: html }} />;
});

/**
 * The growing last chunk of a streaming answer. One that ends inside a code block (markdown/growing-fence.ts) is
 * drawn as that block with its finished pieces kept in the page and only its live lines drawn again, so a frame
 * costs what the new text costs, however long the block has grown (drawn whole, a 600-line block took about 50 ms
 * a frame near its end: bench/streaming-code). Any other tail is drawn whole, as a chunk. The wrappers (a span per
 * piece) change neither what shows nor what Copy copies; the finished answer is drawn whole.
 */
export const GrowingTail = memo(function GrowingTail({ text, references }: { text: string; references: LinkReferences | undefined }) {
  const drawFence = useFenceDrawer();
  const view = useRef<FenceView | null>(null);
  view.current = drawFence ? drawFence(view.current, text, references) : null;
  const fence = view.current;
  if (!fence) return <MarkdownChunk text={text} tail references={references} />;
  return (
    <div className="md-chunk">
      {fence.before !== '' && <div className="md-before" dangerouslySetInnerHTML={{ __html: fence.before }} />}
      <pre className="code-block">
        <div className="code-head">
          <span>{fence.label}</span>
          <button type="button" className="code-copy" data-copy-code="">
            Copy
          </button>
        </div>
        <code className="hljs">
          {fence.pieces.map((html, i) => (
            <CodePiece key={i} html={html} />
          ))}
          <CodePiece key="live" html={fence.live} />
        </code>
      </pre>
    </div>
  );
});
