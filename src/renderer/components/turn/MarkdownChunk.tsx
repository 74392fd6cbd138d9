import { memo } from 'react';
import { useMarkdownRenderer } from '../../markdown/lazy-render';
import type { LinkReferences } from '../../markdown/render';

/**
 * One chunk: its HTML is sanitized (markdown/render.ts) and, once finished, cached; a finished chunk never
 * re-renders. `tail`: the growing last chunk of a streaming answer, whose versions are not cached. In the moment
 * before the markdown code has loaded (lazy-render.ts), it is the chunk's text as it came. `nested`: a chunk of a
 * streaming fold's content (GrowingTail.tsx).
 */
export const MarkdownChunk = memo(function MarkdownChunk({ text, tail = false, references, nested = false }: { text: string; tail?: boolean; references?: LinkReferences | undefined; nested?: boolean }) {
  const render = useMarkdownRenderer();
  if (!render) return <div className="md-chunk md-plain">{text}</div>;
  return <div className="md-chunk" dangerouslySetInnerHTML={{ __html: render(text, !tail, references, nested) }} />;
});
