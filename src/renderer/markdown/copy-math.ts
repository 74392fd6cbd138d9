/**
 * Copying a selection that holds typeset math gives each formula as its TeX between $…$ ($$…$$ for a display), as
 * KaTeX's copy-tex does (katex/contrib/copy-tex). The browser's own copy took KaTeX's two renderings of it, the
 * MathML and the HTML, one letter a line: "$a^2+b^2=c^2$" pasted as "a 2 + b 2 = c 2 a 2 +b 2 =c 2" on 17 lines.
 * copy-tex itself cannot serve: it reads the source from the MathML's <annotation>, which the sanitizer drops (the
 * source is kept in `data-tex` instead: math.ts), and writes the fragment's textContent, which joins blocks and
 * table cells and keeps what the page leaves out of a selection (a code block's label and Copy button: turns.css).
 * The text here is read as the browser reads a selection, from a laid-out copy of it.
 */

/** The formula a node is inside, if any. */
function formulaOf(node: Node): Element | null {
  const element = node instanceof Element ? node : node.parentElement;
  return element?.closest('.katex') ?? null;
}

/** The fragment with each formula as its TeX source and the parts the page does not select taken out. */
function withTexSource(fragment: DocumentFragment): DocumentFragment {
  for (const head of fragment.querySelectorAll('.code-head')) head.remove();
  for (const formula of fragment.querySelectorAll('.katex')) {
    const tex = formula.getAttribute('data-tex');
    if (tex === null) continue;
    const display = formula.parentElement?.classList.contains('katex-display') === true;
    formula.replaceWith(document.createTextNode(display ? `$$${tex}$$` : `$${tex}$`));
  }
  return fragment;
}

/** The text of the fragment as a selection of it reads: laid out off screen for the moment it takes. */
function selectionText(fragment: DocumentFragment): { text: string; html: string } {
  const box = document.createElement('div');
  box.className = 'markdown';
  box.setAttribute('aria-hidden', 'true');
  // Set through the CSSOM (a style attribute would meet the CSP), as copy-text.ts does.
  Object.assign(box.style, { position: 'fixed', left: '-10000px', top: '0', width: '800px', pointerEvents: 'none' });
  box.append(fragment);
  document.body.append(box);
  try {
    return { text: box.innerText, html: box.innerHTML };
  } finally {
    box.remove();
  }
}

function onCopy(event: ClipboardEvent): void {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0 || !event.clipboardData) return;
  const range = selection.getRangeAt(0).cloneRange();
  // A selection that starts or ends inside a formula takes the whole formula.
  const start = formulaOf(range.startContainer);
  if (start) range.setStartBefore(start);
  const end = formulaOf(range.endContainer);
  if (end) range.setEndAfter(end);
  const fragment = range.cloneContents();
  if (!fragment.querySelector('.katex[data-tex]')) return;
  const { text, html } = selectionText(withTexSource(fragment));
  event.clipboardData.setData('text/plain', text);
  event.clipboardData.setData('text/html', html);
  event.preventDefault();
}

let installed = false;

/** Listens for copies from now on (once): called as KaTeX loads, since only typeset math needs it. */
export function copyMathAsTex(): void {
  if (installed || typeof document === 'undefined') return;
  installed = true;
  document.addEventListener('copy', onCopy);
}
