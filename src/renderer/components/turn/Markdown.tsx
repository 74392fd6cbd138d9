import { memo, useEffect, useLayoutEffect, useRef, type MouseEvent, type RefObject } from 'react';
import { answerReferences, useMarkdownRenderer } from '../../markdown/lazy-render';
import { GrowingTail } from './GrowingTail';
import { MarkdownChunk } from './MarkdownChunk';
import type { LinkReferences } from '../../markdown/render';
import { groupChunks, type ChunkGroups } from '../../markdown/chunk-groups';
import { splitGrowing, type SplitState } from '../../markdown/split-blocks';
import { copyText } from '../../copy-text';
import { useReachableScrollers } from './reachable-scrollers';

/** The footnote reference the reader last followed, which its note's link back returns to (weak: a chat closed since lets its answer go). */
let followedNote: WeakRef<Element> | undefined;

/**
 * A footnote's links (markdown/footnotes.ts) move within their own answer: from a reference to its note, and back to
 * the reference followed (the first with that label otherwise). The page is not navigated and nothing opens.
 */
function followFootnote(answer: HTMLElement, link: HTMLElement): void {
  const ref = link.dataset['footnoteRef'];
  const label = ref ?? link.dataset['footnoteBack'] ?? '';
  const followed = followedNote?.deref();
  const back = followed?.getAttribute('data-footnote-ref') === label && answer.contains(followed) ? followed : null;
  const to = ref !== undefined ? answer.querySelector(`[data-footnote="${CSS.escape(label)}"]`) : (back ?? answer.querySelector(`[data-footnote-ref="${CSS.escape(label)}"]`));
  if (ref !== undefined) followedNote = new WeakRef(link);
  if (!(to instanceof HTMLElement)) return;
  to.scrollIntoView({ block: 'center' });
  to.focus({ preventScroll: true });
}

/** Copy buttons and footnote links live inside rendered HTML, so one delegated handler serves them all. */
function onClick(e: MouseEvent<HTMLDivElement>): void {
  const note = e.target instanceof Element ? e.target.closest('a[data-footnote-ref], a[data-footnote-back]') : null;
  if (note instanceof HTMLElement) {
    e.preventDefault();
    followFootnote(e.currentTarget, note);
    return;
  }
  const target = e.target instanceof Element ? e.target.closest('[data-copy-code]') : null;
  if (!target) return;
  const code = target.closest('pre')?.querySelector('code')?.textContent ?? '';
  void copyText(code).then((ok) => {
    if (!ok) return;
    target.textContent = 'Copied';
    setTimeout(() => (target.textContent = 'Copy'), 1500);
  });
}

/**
 * Folds (<details>, markdown/details.ts) the reader opened or closed, by their place among the answer's folds, put
 * back after each render: a streaming chunk's HTML is drawn anew at each token, and a chunk that finishes is mounted
 * anew in its group, both with the folds as the model wrote them, so a fold opened while the answer streamed
 * snapped shut at the next token. Nothing is done per frame until a fold has toggled.
 */
function useFoldStates(root: RefObject<HTMLDivElement | null>): void {
  const folds = useRef(new Map<number, boolean>());
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    // `toggle` does not bubble: caught on its way down.
    const onToggle = (e: Event) => {
      if (e.target instanceof HTMLDetailsElement) folds.current.set([...el.querySelectorAll('details')].indexOf(e.target), e.target.open);
    };
    el.addEventListener('toggle', onToggle, true);
    return () => el.removeEventListener('toggle', onToggle, true);
  }, [root]);
  useLayoutEffect(() => {
    if (folds.current.size === 0 || !root.current) return;
    const all = root.current.querySelectorAll('details');
    for (const [i, open] of folds.current) {
      const fold = all[i];
      if (fold && fold.open !== open) fold.open = open;
    }
  });
}

/** Finished chunks are boxed in groups of about this many: a chunk that finishes re-renders the open run, not all. */
const GROUP = 32;

/**
 * A run of finished chunks. A closed group (`boxed`) is laid out on its own (`.md-group`, chunk-groups.ts); the
 * open run after the closed groups is a plain box (`.md-run`: no containment, so margins collapse through it as
 * if it were not there) under the key the group it becomes will have: when it closes, the same element only
 * changes its class, and its chunks stay mounted. (As a fragment, a closing group unmounted and mounted again
 * its 32 or more chunks in one frame, parsing all their HTML anew.)
 */
const ChunkGroup = memo(
  function ChunkGroup({ chunks, boxed, references }: { chunks: string[]; boxed: boolean; references: LinkReferences | undefined }) {
    return (
      <div className={boxed ? 'md-group' : 'md-run'}>
        {chunks.map((chunk, i) => (
          <MarkdownChunk key={i} text={chunk} references={references} />
        ))}
      </div>
    );
  },
  (a, b) => a.boxed === b.boxed && a.references === b.references && a.chunks.length === b.chunks.length && a.chunks.every((c, i) => c === b.chunks[i]),
);

/**
 * An answer run as markdown. Work is limited to the growing tail: the text is cut into chunks and only the
 * last one changes while streaming (split-blocks.ts splits only from it), and the finished ones are grouped, so
 * a long answer costs one chunk per frame, not the whole answer, in React and in the browser's layout.
 * `growing`: the text is still streaming (its tail's versions are not cached).
 */
export const Markdown = memo(function Markdown({ text, growing = false }: { text: string; growing?: boolean }) {
  const split = useRef<SplitState | undefined>(undefined);
  split.current = splitGrowing(split.current, text);
  const { chunks } = split.current;
  const render = useMarkdownRenderer();
  const root = useRef<HTMLDivElement>(null);
  useFoldStates(root);
  useReachableScrollers(root, growing);
  // `[text][1]` in one chunk, `[1]: url` in another: every chunk is rendered with the answer's definitions (the
  // same object while they stay the same, so finished chunks do not render again).
  const references = render ? answerReferences(chunks, growing, !text.endsWith('\n')) : undefined;
  // Finished chunks' HTML is cached (render.ts): the boundary checks cost lookups, and the chunks render from it.
  // A new renderer (KaTeX came) may change a chunk's HTML, and so where groups close: they are worked out again.
  const grouped = useRef<{ render: typeof render; groups: ChunkGroups } | undefined>(undefined);
  const prev = grouped.current?.render === render ? grouped.current.groups : undefined;
  grouped.current = { render, groups: groupChunks(chunks, chunks.length - 1, render, GROUP, prev) };
  const { closed, open } = grouped.current.groups;
  // One list, so the open run and the group it becomes are the same element (a key matches only among siblings).
  const runs = closed.map((group, g) => <ChunkGroup key={g} chunks={group} boxed references={references} />);
  if (open.length > 0) runs.push(<ChunkGroup key={closed.length} chunks={open} boxed={false} references={references} />);
  return (
    <div className="markdown" onClick={onClick} ref={root}>
      {runs}
      {chunks.length > 0 &&
        (growing ? <GrowingTail key="tail" text={chunks[chunks.length - 1]!} references={references} /> : <MarkdownChunk key="tail" text={chunks[chunks.length - 1]!} references={references} />)}
    </div>
  );
});
