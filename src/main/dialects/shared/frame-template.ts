/**
 * JSON.parse for one stream's frames, with a shortcut for frames that repeat the last shape.
 *
 * A streaming response sends thousands of frames that are the same JSON text except inside a few string values
 * (the token text; Ollama's created_at). The template is the last frame JSON.parse read, as literal text with
 * "holes" at the string values seen to vary. A new frame that is exactly literal0 "s1" literal1 ... parses, by
 * JSON's grammar, to the template's value with those strings put in: a hole without escapes or control characters
 * stands for its own characters, and one with escapes (a newline in the text) is read by JSON.parse of just that
 * string token. So the value is built by copying only the containers on the paths to the holes. Anything else
 * goes to JSON.parse whole (and may become the next template once two frames in a row share its shape).
 *
 * Measured (bench/normalize, same run, CPU time): a hit costs ~10-15% less than JSON.parse of the frame, and the
 * dialects' time over the floor fell from 1.23-1.36x to 1.08-1.22x (two runs each, noisy shared machine). Since
 * its literals are compared with indexOf instead of startsWith (`textAt`), the whole pipeline (framing, dialect,
 * splitter, reducer) takes 0.45-0.62x the floor's time (framing + JSON.parse), against 0.87-0.99x before: 1.34M,
 * 1.79M and 1.18M tokens/CPU-s for openai, ollama and anthropic against 0.63-0.81M, 0.78-0.86M and 0.82-0.86M,
 * on a host where JSON.parse alone reads 0.6-0.9M.
 *
 * A template is only made from a frame whose text is exactly JSON.stringify's form of its value (compact, keys in
 * the order JSON.parse gives them, numbers as stringify writes them), so the literal text is known to stand for the
 * value. Values returned share the parts off the way to a hole with the template, so those parts are deep-frozen
 * when a template is made: a write into one throws (modules are strict) instead of changing every later frame.
 * The containers on the way to a hole are each value's own, unfrozen, and the template's value is its own (a
 * second JSON.parse of the frame it is made from), so no value handed out is part of the template.
 *
 * Which strings are holes only decides how fast a frame reads, never what it reads (any string value can be a
 * hole). A string seen to vary stays a hole for the rest of the stream, across changes of shape: llama-server's
 * `created` (a number, in seconds) ticks mid-stream, and a model that writes one token over and over (a derailed
 * tool call sends `"#"` thousands of times) sends frames with no string differing from the last. Holes chosen only
 * from the last two frames left such a stream without a template after its first tick: every frame then paid
 * JSON.parse plus learning, 3-6x plain JSON.parse (200,000 such frames, wall time on a loaded machine: 1.6-2.6 s
 * against 0.3-0.8 s; with this, 199,900 of them hit).
 */

export type Key = string | number;
type Node = Record<string, unknown> | unknown[];

export interface Template {
  /** lits[0] hole lits[1] hole ... lits[n]; each lit before a hole ends with its opening quote. */
  readonly lits: string[];
  /** The container path to each hole's string, and the key within its container (the last element). */
  readonly paths: Key[][];
  /** What a matching frame parses to, but with this frame's strings at the holes. Not to be written. */
  readonly value: unknown;
}

/**
 * For a dialect's plain-hole reading (the FrameTemplate constructor): among the holes under `read` (the top-level
 * keys the dialect reads), the index of the only one, when `isText` says it is the text's path; -1 when there is
 * none, another, or more than one (a frame would then mean more than that string).
 */
export function soleHole(t: Template, read: readonly Key[], isText: (path: readonly Key[]) => boolean): number {
  let hole = -1;
  for (let h = 0; h < t.paths.length; h++) {
    const path = t.paths[h]!;
    if (!read.includes(path[0]!)) continue;
    if (hole !== -1 || !isText(path)) return -1;
    hole = h;
  }
  return hole;
}

/** A frame as JSON.parse read it: its text cut at every string value, and where each string sits. */
interface Shape {
  /** Literal text between string values; each ends with an opening quote except the last. */
  gaps: string[];
  strings: string[];
  paths: Key[][];
}

export class FrameTemplate {
  private template: Template | null = null;
  private last: { shape: Shape; value: unknown } | null = null;
  /** The paths (as JSON text) of the strings seen to differ between two frames of one shape, this stream. */
  private readonly varying = new Set<string>();
  /** The current template's plain hole (see the constructor), -1 for none. */
  private plainHole = -1;
  /** The key the plain hole's string sits under (`content`, `thinking`...), undefined when there is none. */
  private plainAt: Key | undefined;
  /** The hole strings of the frame being matched, reused frame after frame (one array less per frame). */
  private readonly holes: string[] = [];
  /** Counts for tests and benches: frames read through the template vs. JSON.parse. */
  hits = 0;
  misses = 0;

  /**
   * `plainHoleOf` is a dialect's reading of a template, worked out once when it is made: which hole holds the
   * whole meaning of every frame it matches (a token's text, with nothing else to act on), or -1. Frames of such
   * a template can be read by that string alone (`readPlain`), with no value built for them.
   */
  constructor(private readonly plainHoleOf?: (template: Template) => number) {}

  parse(text: string): unknown {
    const t = this.template;
    if (t !== null) {
      const holes = match(t, text, this.holes);
      if (holes !== undefined) {
        this.hits++;
        return build(t, holes);
      }
    }
    this.misses++;
    const value: unknown = JSON.parse(text);
    this.learn(text, value);
    return value;
  }

  /**
   * The key the current template's plain hole sits under, undefined when it has none: which of a dialect's plain
   * readings (content, reasoning) its frames get. Known before `readPlain`, so a dialect may skip that call.
   */
  get plainKey(): Key | undefined {
    return this.plainAt;
  }

  /** The template frames are read through now (a new object whenever it changes), null before the first. */
  get current(): Template | null {
    return this.template;
  }

  /**
   * The plain hole's string when `text` matches the current template and that template has one (see the
   * constructor); otherwise undefined, and the frame is to be read with `parse`.
   */
  readPlain(text: string): string | undefined {
    const t = this.template;
    if (t === null || this.plainHole < 0) return undefined;
    const holes = match(t, text, this.holes);
    if (holes === undefined) return undefined;
    this.hits++;
    return holes[this.plainHole];
  }

  private learn(text: string, value: unknown): void {
    if (value === null || typeof value !== 'object') return;
    const shape = describe(value);
    if (shape === null || !sameText(shape, text)) {
      this.last = null;
      return;
    }
    const prev = this.last;
    this.last = { shape, value };
    if (prev === null || !sameGaps(prev.shape, shape)) return;
    // Two frames of one shape in a row: the strings that differed, and any at a path seen to differ before
    // (in this shape or another), become holes.
    const keys = shape.paths.map((p) => JSON.stringify(p));
    for (let i = 0; i < shape.strings.length; i++) if (shape.strings[i] !== prev.shape.strings[i]) this.varying.add(keys[i]!);
    const variable = keys.map((k) => this.varying.has(k));
    if (!variable.includes(true)) return;
    const lits: string[] = [];
    const paths: Key[][] = [];
    let lit = shape.gaps[0]!;
    for (let i = 0; i < shape.strings.length; i++) {
      if (variable[i]) {
        lits.push(lit);
        paths.push(shape.paths[i]!);
        lit = shape.gaps[i + 1]!;
      } else {
        // gaps[i] ends with the opening quote and gaps[i + 1] starts with the closing one.
        lit += JSON.stringify(shape.strings[i]).slice(1, -1) + shape.gaps[i + 1]!;
      }
    }
    lits.push(lit);
    // Its own value, not the one handed out for this frame: a second JSON.parse, once per template (objects
    // JSON.parse made read faster as templates than copies of them: the ollama hit path was ~20% slower so).
    const template: Template = { lits, paths, value: freezeOffPath(JSON.parse(text) as Node, paths, 0) };
    this.template = template;
    this.plainHole = this.plainHoleOf ? this.plainHoleOf(template) : -1;
    const path = paths[this.plainHole];
    this.plainAt = path === undefined ? undefined : path[path.length - 1];
  }
}

/**
 * Deep-freezes everything in the template's value off the way to a hole: every value built from it shares those
 * parts. Its containers on the way to a hole stay unfrozen (they are never handed out, only copied, and hits copied
 * from frozen containers read 2-3x slower in a micro-benchmark).
 */
function freezeOffPath(node: Node, paths: Key[][], depth: number): Node {
  const through = new Map<string, Key[][]>();
  for (const p of paths) {
    if (p.length - 1 <= depth) continue;
    const k = String(p[depth]);
    const list = through.get(k);
    if (list) list.push(p);
    else through.set(k, [p]);
  }
  const o = node as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const list = through.get(k);
    if (list) freezeOffPath(o[k] as Node, list, depth + 1);
    else deepFreeze(o[k]);
  }
  return node;
}

/** Freezes a parsed JSON value and everything in it (plain objects and arrays only: JSON.parse made it). */
function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** The hole strings of `text`, written into `holes`, if it is the template's text with strings in the holes. */
function match(t: Template, text: string, holes: string[]): string[] | undefined {
  const lits = t.lits;
  const n = lits.length - 1;
  let pos = 0;
  // Set only when it changes: setting an array's length is a call into the runtime (2% of a profile per frame).
  if (holes.length !== n) holes.length = n;
  for (let i = 0; i < n; i++) {
    const lit = lits[i]!;
    if (!textAt(text, lit, pos)) return undefined;
    pos += lit.length;
    const start = pos;
    let escaped = false;
    for (;;) {
      if (pos >= text.length) return undefined;
      const c = text.charCodeAt(pos);
      if (c === 0x22) break;
      if (c < 0x20) return undefined;
      if (c === 0x5c) {
        escaped = true;
        pos++;
      }
      pos++;
    }
    if (escaped) {
      // An escape (a newline in the text, say): JSON.parse reads just this string token, and checks it.
      try {
        holes[i] = JSON.parse(text.slice(start - 1, pos + 1)) as string;
      } catch {
        return undefined;
      }
    } else {
      holes[i] = text.slice(start, pos);
    }
  }
  const lastLit = lits[n]!;
  if (text.length !== pos + lastLit.length || !textAt(text, lastLit, pos)) return undefined;
  return holes;
}

/**
 * `text.startsWith(lit, pos)`, faster: V8's startsWith compares character by character (~430 ns for a frame's
 * 85-character opening literal on the 2-core machine, most of a template hit's time), while indexOf finds a match
 * at `pos` with one block compare (~85 ns) and allocates nothing. A mismatch is rare (the frame's shape changed)
 * and costs at most a scan of the rest of the frame. bench/normalize's openai frames: this function 295 ms of CPU
 * for 3M frames against 538 with `text.slice(pos, end) === lit` (a profile of each).
 */
function textAt(text: string, lit: string, pos: number): boolean {
  const end = pos + lit.length;
  return end <= text.length && text.indexOf(lit, pos) === pos;
}

function shallowCopy(node: Node): Node {
  return Array.isArray(node) ? node.slice() : { ...node };
}

function build(t: Template, holes: readonly string[]): unknown {
  const original = t.value as Node;
  const root = shallowCopy(original);
  for (let h = 0; h < holes.length; h++) {
    const path = t.paths[h]!;
    let node = root as Record<Key, unknown>;
    let orig = original as Record<Key, unknown>;
    for (let i = 0; i < path.length - 1; i++) {
      const k = path[i]!;
      const origChild = orig[k] as Node;
      let child = node[k] as Node;
      // Still the template's own container: copy it before writing under it.
      if (child === origChild) {
        child = shallowCopy(origChild);
        node[k] = child;
      }
      node = child as Record<Key, unknown>;
      orig = origChild as Record<Key, unknown>;
    }
    node[path[path.length - 1]!] = holes[h];
  }
  return root;
}

/** Cuts JSON.stringify(value) at its string values; null where the value is not plain JSON data. */
function describe(value: unknown): Shape | null {
  const gaps: string[] = [];
  const strings: string[] = [];
  const paths: Key[][] = [];
  let cur = '';
  const path: Key[] = [];
  const walk = (v: unknown): boolean => {
    if (typeof v === 'string') {
      gaps.push(cur + '"');
      strings.push(v);
      paths.push(path.slice());
      cur = '"';
      return true;
    }
    if (v === null || typeof v === 'boolean') {
      cur += String(v);
      return true;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return false;
      cur += JSON.stringify(v);
      return true;
    }
    if (Array.isArray(v)) {
      cur += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) cur += ',';
        path.push(i);
        if (!walk(v[i])) return false;
        path.pop();
      }
      cur += ']';
      return true;
    }
    if (typeof v === 'object') {
      const o = v as Record<string, unknown>;
      cur += '{';
      let first = true;
      for (const k of Object.keys(o)) {
        if (!first) cur += ',';
        first = false;
        cur += JSON.stringify(k) + ':';
        path.push(k);
        if (!walk(o[k])) return false;
        path.pop();
      }
      cur += '}';
      return true;
    }
    return false;
  };
  if (!walk(value)) return null;
  gaps.push(cur);
  return { gaps, strings, paths };
}

/** Whether the text is exactly the shape's gaps with its strings as JSON.stringify writes them. */
function sameText(shape: Shape, text: string): boolean {
  let s = shape.gaps[0]!;
  for (let i = 0; i < shape.strings.length; i++) s += JSON.stringify(shape.strings[i]).slice(1, -1) + shape.gaps[i + 1]!;
  return s === text;
}

function sameGaps(a: Shape, b: Shape): boolean {
  if (a.gaps.length !== b.gaps.length) return false;
  for (let i = 0; i < a.gaps.length; i++) if (a.gaps[i] !== b.gaps[i]) return false;
  return true;
}
