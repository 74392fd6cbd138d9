import { memo, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTailDrawers, type TailDrawers } from '../../markdown/lazy-render';
import type { FenceView, FoldView, LinkReferences, ListView, TableView } from '../../markdown/render';
import { splitGrowing, type SplitState } from '../../markdown/split-blocks';
import { growQuote, type QuoteDraft } from '../../markdown/growing-quote';
import { MarkdownChunk } from './MarkdownChunk';

/** A finished piece of a streaming code block: its HTML is set once and never drawn again. */
const CodePiece = memo(function CodePiece({ html }: { html: string }) {
  return <span dangerouslySetInnerHTML={{ __html: html }} />;
});

type TailProps = { text: string; references: LinkReferences | undefined; nested?: boolean };

/**
 * The growing last chunk of a streaming answer, drawn so that a frame costs what the new text costs, however long
 * the chunk has grown: one that ends inside a code block (markdown/growing-fence.ts) keeps its finished pieces in
 * the page and draws only its live lines again (drawn whole, a 600-line block took about 50 ms a frame near its
 * end: bench/streaming-code); one that is an open fold (markdown/growing-fold.ts) is drawn as its content's chunks,
 * the finished ones once; one that is a list (markdown/list-view.ts) as its items, and one that is a table
 * (markdown/table-view.ts) as its rows, the finished ones once; one that is a quote (markdown/growing-quote.ts) as
 * its content's chunks, as a fold. Any other tail is drawn whole, as a chunk. The wrappers (a span per piece, a box
 * per chunk) change neither what shows nor what Copy copies; the finished answer is drawn whole. `nested`: the tail
 * of a fold's or a quote's content.
 */
export const GrowingTail = memo(function GrowingTail({ text, references, nested = false }: TailProps) {
  const drawers = useTailDrawers();
  const fold = useRef<FoldView | null>(null);
  const fence = useRef<FenceView | null>(null);
  const list = useRef<{ drawers: TailDrawers; view: ListView | null } | null>(null);
  const table = useRef<{ drawers: TailDrawers; view: TableView | null } | null>(null);
  const quote = useRef<QuoteDraft | null>(null);
  fold.current = drawers ? drawers.fold(fold.current, text) : null;
  if (fold.current) return <GrowingFold view={fold.current} references={references} nested={nested} />;
  fence.current = drawers ? drawers.fence(fence.current, text, references, nested) : null;
  // A list's items drawn before a grammar or KaTeX came are drawn again with the drawers that came with them.
  const prevList = list.current?.drawers === drawers ? list.current.view : null;
  list.current = drawers && !fence.current ? { drawers, view: drawers.list(prevList, text, references, nested) } : null;
  if (list.current?.view) return <GrowingList view={list.current.view} />;
  const prevTable = table.current?.drawers === drawers ? table.current.view : null;
  table.current = drawers && !fence.current ? { drawers, view: drawers.table(prevTable, text, references, nested) } : null;
  if (table.current?.view) return <GrowingTable view={table.current.view} />;
  quote.current = drawers && !fence.current ? growQuote(quote.current, text) : null;
  if (quote.current) return <GrowingQuote content={quote.current.content} references={references} nested={nested} />;
  if (!fence.current) return <MarkdownChunk text={text} tail references={references} nested={nested} />;
  const view = fence.current;
  if (view.draft.container) return <ContainedFence view={view} />;
  return (
    <div className="md-chunk">
      {view.before !== '' && <div className="md-before" dangerouslySetInnerHTML={{ __html: view.before }} />}
      <pre className="code-block">
        <div className="code-head">
          <span>{view.label}</span>
          <button type="button" className="code-copy" data-copy-code="">
            Copy
          </button>
        </div>
        <code className="hljs">
          {view.pieces.map((html, i) => (
            <CodePiece key={i} html={html} />
          ))}
          <CodePiece key="live" html={view.live} />
        </code>
      </pre>
    </div>
  );
});

/** A finished item of a streaming list: its HTML is set once (again only if the list turns loose). */
const ListItem = memo(function ListItem({ html }: { html: string }) {
  return <li dangerouslySetInnerHTML={{ __html: html }} />;
});

/**
 * A list still streaming, as markdown-it draws it (its `start`, and `dir="auto"` at the top level), its items each in
 * their own `<li>`. Keyed by place, so the last item, once finished, keeps its element.
 */
function GrowingList({ view }: { view: ListView }) {
  return (
    <div className="md-chunk">
      <ListItems view={view} />
    </div>
  );
}

/**
 * The list element and its items. The last item, when it ends in a list or a table of its own (list-view.ts,
 * Sublist), is its head's HTML (in a box that leaves the layout to its content: .md-before) and that list, drawn item
 * by item, or that table, row by row.
 */
function ListItems({ view }: { view: ListView }) {
  const List = view.tag;
  return (
    <List start={view.start} dir={view.nested ? undefined : 'auto'}>
      {view.items.map((item, i) =>
        item.sublist ? (
          <li key={i}>
            <span className="md-before" dangerouslySetInnerHTML={{ __html: item.sublist.head }} />
            {item.sublist.list ? <ListItems view={item.sublist.list} /> : <TableRows view={item.sublist.table!} />}
          </li>
        ) : (
          <ListItem key={i} html={item.html} />
        ),
      )}
    </List>
  );
}

/** A finished row of a streaming table: its HTML is set once. */
const TableRow = memo(function TableRow({ html }: { html: string }) {
  return <tr dangerouslySetInnerHTML={{ __html: html }} />;
});

/** A table still streaming, as markdown-it draws it, its rows each in their own `<tr>`, keyed by place. */
function GrowingTable({ view }: { view: TableView }) {
  return (
    <div className="md-chunk">
      <TableRows view={view} />
    </div>
  );
}

/** The table element, its head and its rows. */
function TableRows({ view }: { view: TableView }) {
  return (
    <table dir={view.nested ? undefined : 'auto'}>
      <thead dangerouslySetInnerHTML={{ __html: view.head }} />
      {view.rows.length > 0 && (
        <tbody>
          {view.rows.map((html, i) => (
            <TableRow key={i} html={html} />
          ))}
        </tbody>
      )}
    </table>
  );
}

/** What a contained block's code element holds: the pieces put in so far and the span of its live lines. */
interface DrawnCode {
  shell: string;
  code: Element;
  pieces: readonly string[];
  live: HTMLSpanElement;
  liveHtml: string;
}

/**
 * A code block streaming in a list item or a quote: the chunk up to its code (its shell) is set once, and the code
 * goes into the shell's last code element, its finished pieces each put in once and its live lines set again at each
 * token. The shell's HTML holds no React children, so what is put in it stays until the shell changes.
 */
function ContainedFence({ view }: { view: FenceView }) {
  const box = useRef<HTMLDivElement>(null);
  const drawn = useRef<DrawnCode | null>(null);
  useLayoutEffect(() => {
    const codes = box.current?.getElementsByTagName('code');
    const code = codes?.[codes.length - 1];
    if (!code) return;
    let now = drawn.current;
    const kept = now && now.shell === view.before && now.code === code && now.pieces.every((p, i) => view.pieces[i] === p);
    if (!now || !kept) {
      code.textContent = '';
      now = { shell: view.before, code, pieces: [], live: document.createElement('span'), liveHtml: '' };
      code.append(now.live);
    }
    for (const html of view.pieces.slice(now.pieces.length)) {
      const piece = document.createElement('span');
      piece.innerHTML = html;
      now.live.before(piece);
    }
    now.pieces = view.pieces;
    if (now.liveHtml !== view.live) now.live.innerHTML = now.liveHtml = view.live;
    drawn.current = now;
  });
  return <div className="md-chunk" ref={box} dangerouslySetInnerHTML={{ __html: view.before }} />;
}

/**
 * An open fold still being written (its summary says so while closed: turns.css), its content drawn in chunks
 * (useContentChunks).
 */
function GrowingFold({ view, references, nested }: { view: FoldView; references: LinkReferences | undefined; nested: boolean }) {
  const inner = useContentChunks(view.draft.tail.slice(view.draft.innerStart), references);
  const fold = (
    <details dir={nested ? undefined : 'auto'} data-writing="" open={view.draft.open || undefined}>
      <summary dangerouslySetInnerHTML={{ __html: view.summary }} />
      {inner}
    </details>
  );
  return nested ? fold : <div className="md-chunk">{fold}</div>;
}

/**
 * A quote still being written (growing-quote.ts): its content drawn as a fold's is, so a list, table, code block or
 * quote at its end is drawn in parts as well.
 */
function GrowingQuote({ content, references, nested }: { content: string; references: LinkReferences | undefined; nested: boolean }) {
  const quote = <blockquote dir={nested ? undefined : 'auto'}>{useContentChunks(content, references)}</blockquote>;
  return nested ? quote : <div className="md-chunk">{quote}</div>;
}

/**
 * The content of a fold or a quote still being written, cut into chunks as an answer is: the finished ones drawn once,
 * the last one as a growing tail. The last runs to the end of the content, with the blank lines the cut leaves off
 * (an open code block's last lines).
 */
function useContentChunks(content: string, references: LinkReferences | undefined): ReactNode[] {
  const split = useRef<SplitState | undefined>(undefined);
  split.current = splitGrowing(split.current, content);
  const { chunks } = split.current;
  const last = chunks.at(-1);
  const drawn: ReactNode[] = chunks.slice(0, -1).map((chunk, i) => <MarkdownChunk key={i} text={chunk} references={references} nested />);
  if (last !== undefined) drawn.push(<GrowingTail key="tail" text={content.slice(content.lastIndexOf(last))} references={references} nested />);
  return drawn;
}
