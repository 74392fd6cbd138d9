/**
 * The vocabulary of a scripted model and the segmentation of its script into tokens.
 *
 * SentencePiece style (`tokenizer.ggml.model = llama`): `<unk>` `<s>` `</s>`, the 256 byte tokens (so any prompt
 * tokenizes by byte fallback), the chat template's special tokens, then the script's own pieces. The model is a
 * bigram machine (see model.ts), so a token may appear only once in the script: a repeated word is spelled with
 * other pieces, and a special tag's second occurrence is spelled in plain pieces (the server parses text, so
 * `<tool` + `_call>` reads exactly like the `<tool_call>` token).
 */

export const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, userDefined: 4, byte: 6 } as const;

/** ChatML turn markers: CONTROL (never produced from plain text unless specials are parsed). */
export const CONTROL_TOKENS = ['<|im_start|>', '<|im_end|>'] as const;
/** Tags the template and the server's parsers use; USER_DEFINED like Qwen3's, always matched in text. */
export const TAG_TOKENS = ['<think>', '</think>', '<tool_call>', '</tool_call>', '<tool_response>', '</tool_response>'] as const;

export const UNK_ID = 0;
export const BOS_ID = 1;
const BYTE_BASE = 3;
export const EOT_TEXT = '<|im_end|>';

/** The token id of a raw byte (`<0xNN>`). */
export function byteTokenId(byte: number): number {
  return BYTE_BASE + byte;
}

/** The last token of every generation prompt the template writes ("...assistant\n" or "</think>\n\n"). */
export const PROMPT_LAST_TOKEN = byteTokenId(0x0a);

/**
 * Text that ends a generation prompt after the last special token. A piece that is a suffix of one of these
 * could swallow the final newline when the server tokenizes the prompt, and the script would never start.
 */
const PROMPT_TAILS = ['assistant\n', '\n\n'];

export interface Vocab {
  tokens: string[];
  scores: number[];
  types: number[];
  eosId: number;
  /** Text (as written in the script, spaces as spaces) of each token id, for messages and tests. */
  textOf(id: number): string;
}

export interface SegmentedScript {
  vocab: Vocab;
  /** The script as token ids, in order. */
  chain: number[];
  /** The same as the pieces of text they decode to. */
  pieces: string[];
}

const SPM_SPACE = '\u2581';

function baseTokens(): { tokens: string[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types: number[] = [TOKEN_TYPE.unknown, TOKEN_TYPE.control, TOKEN_TYPE.control];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_TYPE.byte);
  }
  for (const t of CONTROL_TOKENS) {
    tokens.push(t);
    types.push(TOKEN_TYPE.control);
  }
  for (const t of TAG_TOKENS) {
    tokens.push(t);
    types.push(TOKEN_TYPE.userDefined);
  }
  return { tokens, types };
}

function pieceAllowed(piece: string, taken: ReadonlySet<string>, reserved: ReadonlySet<string>): boolean {
  if (!piece || taken.has(piece) || reserved.has(piece)) return false;
  if (piece === '\n') return false;
  return !PROMPT_TAILS.some((tail) => piece.length >= 2 && tail.endsWith(piece));
}

/**
 * Pieces for one chunk of plain text: the chunk itself when unused, else its longest unused prefix and the rest
 * the same way; a single character last of all falls back to its byte token.
 */
function spell(chunk: string, taken: Set<string>, reserved: ReadonlySet<string>, out: Piece[]): void {
  if (pieceAllowed(chunk, taken, reserved)) {
    taken.add(chunk);
    out.push({ kind: 'normal', text: chunk });
    return;
  }
  const chars = [...chunk];
  if (chars.length === 1) {
    const bytes = Buffer.from(chunk, 'utf8');
    const key = `byte:${chunk}`;
    if (bytes.length === 1 && !taken.has(key) && bytes[0] !== 0x0a) {
      taken.add(key);
      out.push({ kind: 'byte', text: chunk, byte: bytes[0] ?? 0 });
      return;
    }
    throw new Error(`scripted model: cannot spell ${JSON.stringify(chunk)} once more (every token may appear only once in a script)`);
  }
  for (let k = chars.length - 1; k >= 1; k--) {
    const left = chars.slice(0, k).join('');
    if (pieceAllowed(left, taken, reserved)) {
      taken.add(left);
      out.push({ kind: 'normal', text: left });
      spell(chars.slice(k).join(''), taken, reserved, out);
      return;
    }
  }
  spell(chars[0] ?? '', taken, reserved, out);
  spell(chars.slice(1).join(''), taken, reserved, out);
}

type Piece = { kind: 'normal'; text: string } | { kind: 'special'; text: string } | { kind: 'byte'; text: string; byte: number };

/** Splits plain text where a reader would: a word with its leading space, newlines kept with their neighbours. */
function chunks(text: string): string[] {
  return text.match(/\n*[^\S\n]*[^\s]+\n*|\s+/gu) ?? [];
}

/**
 * Turns a script's text into unique pieces and builds the vocabulary around them. The first occurrence of a tag
 * (`<think>`, `<tool_call>`, ...) becomes its special token; later ones are spelled as text.
 */
export function segmentScript(text: string): SegmentedScript {
  const { tokens, types } = baseTokens();
  const reserved = new Set(tokens);
  const taken = new Set<string>();
  const pieces: Piece[] = [];
  const tagPattern = new RegExp(`(${[...TAG_TOKENS].map((t) => t.replace(/[|<>/]/g, (c) => `\\${c}`)).join('|')})`, 'g');
  let plain = '';
  const flush = () => {
    for (const c of chunks(plain)) spell(c, taken, reserved, pieces);
    plain = '';
  };
  for (const part of text.split(tagPattern)) {
    // Whitespace alone between two tags cannot be a token of its own (a lone newline starts the script), so
    // the second tag is then spelled as text together with it.
    const afterBlank = plain !== '' && plain.trim() === '';
    if ((TAG_TOKENS as readonly string[]).includes(part) && !taken.has(`special:${part}`) && !afterBlank) {
      flush();
      taken.add(`special:${part}`);
      pieces.push({ kind: 'special', text: part });
    } else plain += part;
  }
  flush();
  if (pieces.length === 0) throw new Error('scripted model: empty script');

  const scores = tokens.map(() => 0);
  const chain: number[] = [];
  let rank = 0;
  for (const p of pieces) {
    if (p.kind === 'special') chain.push(tokens.indexOf(p.text));
    else if (p.kind === 'byte') chain.push(byteTokenId(p.byte));
    else {
      chain.push(tokens.length);
      tokens.push(p.text.replaceAll(' ', SPM_SPACE));
      types.push(TOKEN_TYPE.normal);
      scores.push(-++rank);
    }
  }
  const eosId = tokens.indexOf(EOT_TEXT);
  const vocab: Vocab = {
    tokens,
    scores,
    types,
    eosId,
    textOf: (id) => {
      const t = tokens[id] ?? '';
      if (types[id] === TOKEN_TYPE.byte) return String.fromCharCode(parseInt(t.slice(3, 5), 16));
      return t.replaceAll(SPM_SPACE, ' ');
    },
  };
  return { vocab, chain, pieces: pieces.map((p) => p.text) };
}
