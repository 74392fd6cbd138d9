import { memo, useRef, type MouseEvent } from 'react';
import { useMarkdownRenderer } from '../../markdown/lazy-render';
import { splitGrowing, type SplitState } from '../../markdown/split-blocks';

/**
 * One chunk: its HTML is sanitized (markdown/render.ts) and, once finished, cached; a finished chunk never
 * re-renders. `tail`: the growing last chunk of a streaming answer, whose versions are not cached. In the moment
 * before the markdown code has loaded (lazy-render.ts), it is the chunk's text as it came.
 */
const MarkdownChunk = memo(function MarkdownChunk({ text, tail = false }: { text: string; tail?: boolean }) {
  const render = useMarkdownRenderer();
  if (!render) return <div className="md-chunk md-plain">{text}</div>;
  return <div className="md-chunk" dangerouslySetInnerHTML={{ __html: render(text, !tail) }} />;
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

/** Finished chunks are rendered in groups this big: a new finished chunk re-renders one group, not all. */
const GROUP = 32;

/** A run of finished chunks (a fragment: the chunks stay direct children of `.markdown`). */
const ChunkGroup = memo(
  function ChunkGroup({ chunks }: { chunks: string[] }) {
    return (
      <>
        {chunks.map((chunk, i) => (
          <MarkdownChunk key={i} text={chunk} />
        ))}
      </>
    );
  },
  (a, b) => a.chunks.length === b.chunks.length && a.chunks.every((c, i) => c === b.chunks[i]),
);

/**
 * An answer run as markdown. Work is limited to the growing tail: the text is cut into chunks and only the
 * last one changes while streaming (split-blocks.ts splits only from it), and the finished ones are grouped, so
 * a long answer costs one chunk per frame, not the whole answer. `growing`: the text is still streaming (its
 * tail's versions are not cached).
 */
export const Markdown = memo(function Markdown({ text, growing = false }: { text: string; growing?: boolean }) {
  const split = useRef<SplitState | undefined>(undefined);
  split.current = splitGrowing(split.current, text);
  const { chunks } = split.current;
  const finished = chunks.length - 1;
  const groups: string[][] = [];
  for (let i = 0; i < finished; i += GROUP) groups.push(chunks.slice(i, Math.min(i + GROUP, finished)));
  return (
    <div className="markdown" onClick={onClick}>
      {groups.map((group, g) => (
        <ChunkGroup key={g} chunks={group} />
      ))}
      {chunks.length > 0 && <MarkdownChunk key="tail" text={chunks[chunks.length - 1]!} tail={growing} />}
    </div>
  );
});
