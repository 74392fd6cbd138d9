/**
 * GFM's extended www autolink (GFM spec, "Autolinks (extension)"): `www.` followed by a valid domain, then an optional
 * path. linkify-it finds no address without a scheme by default (fuzzyLink is off since linkify-it 6), and its reading
 * of a host after `//` takes `localhost` and `[::1]` too, so `www.localhost` was a link. The spec's domain is stricter:
 * "segments of alphanumeric characters, underscores and hyphens separated by periods. There must be at least one
 * period, and no underscores may be present in the last two segments".
 */

/** The part of a linkify-it instance read here: the patterns it builds from its options. */
interface Linkify {
  re: { get_port(): RegExp; get_host_terminator(): RegExp; get_path(): RegExp };
}

/**
 * The domain after `www.`: its longest run of segments, so an underscore in either of the last two is seen. Letters
 * are any script's, with their marks (例子.测试, हिन्दी.भारत), as linkify-it reads a host.
 */
const DOMAIN = /[\p{L}\p{M}\p{N}_-]+(?:\.[\p{L}\p{M}\p{N}_-]+)+/uy;

/** What the spec leaves out of a link's end ("extended autolink path validation"), though allowed inside it. */
const TRAILING = '?!.,:*_~';
/** An end that reads as an entity reference (`&hl;`), which the spec leaves out with its `&`. */
const ENTITY_END = /&[A-Za-z0-9]+;$/;

/** The valid domain that starts at `pos` (just after `www.`), or '' when there is none. */
function validDomain(text: string, pos: number): string {
  DOMAIN.lastIndex = pos;
  const domain = DOMAIN.exec(text)?.[0] ?? '';
  return domain.split('.').slice(-2).some((segment) => segment.includes('_')) ? '' : domain;
}

/** The spec's reading of what may follow a domain: every character up to a space or a `<`. */
const SPEC_TAIL = /[^\s<]*/y;

const count = (text: string, char: string) => text.split(char).length - 1;

/**
 * How much of `candidate` is the link once the spec's end rules ran, again and again: trailing punctuation off, an
 * entity-like `&name;` off, and a final `)` off while the link closes more parentheses than it opens. linkify-it
 * already leaves a final `;` out, so the caller passes it on when it follows.
 */
function gfmLinkEnd(candidate: string): number {
  let end = candidate.length;
  for (;;) {
    const link = candidate.slice(0, end);
    const last = link.at(-1);
    if (last && TRAILING.includes(last)) end -= 1;
    else if (last === ';') end -= ENTITY_END.exec(link)?.[0].length ?? 1;
    else if (last === ')' && count(link, ')') > count(link, '(')) end -= 1;
    else return end;
  }
}

/** Keyed by linkify-it's own path pattern, which it builds again when its options change. */
const tails = new WeakMap<RegExp, RegExp>();

/**
 * What follows the domain (a port, then the path), read as linkify-it reads it after a host, so brackets and quotes
 * pair up and a sentence's closing punctuation stays out as it does for an `https://` link. Where the spec would read
 * on to the next space (a closing `"` or a `。` and the sentence after it in the link), this keeps linkify-it's end;
 * the spec's own end rules then run on it (gfmLinkEnd).
 */
function tailAfterHost({ re }: Linkify): RegExp {
  const path = re.get_path();
  let tail = tails.get(path);
  if (!tail) {
    tail = new RegExp(re.get_port().source + re.get_host_terminator().source + path.source, 'iy');
    tails.set(path, tail);
  }
  return tail;
}

/** linkify-it's `validate` for the `www.` schema: the link's length after `www.`, or 0 where there is none. */
export function wwwLinkLength(text: string, pos: number, self: Linkify): number {
  const domain = validDomain(text, pos);
  if (!domain) return 0;
  const tail = tailAfterHost(self);
  tail.lastIndex = pos + domain.length;
  const path = tail.exec(text)?.[0];
  if (path === undefined) return 0;
  let read = domain.length + path.length;
  // linkify-it stops at a `)` it cannot pair; the spec reads on, and pairs only the ones the link ends with.
  if (text[pos + read] === ')') {
    SPEC_TAIL.lastIndex = pos + read;
    read += SPEC_TAIL.exec(text)?.[0].length ?? 0;
  }
  const end = gfmLinkEnd(text.slice(pos, pos + read + (text[pos + read] === ';' ? 1 : 0)));
  return end >= domain.length ? end : 0;
}
