import type { AttachmentBlock, Turn } from './turn';

/**
 * The uncalibrated token estimate (DESIGN.md §2): characters / 4 plus a fixed budget per image. Pure, so the
 * composer's meter and the engine's preflight can share it until the engine calibrates it per model.
 */
export const CHARS_PER_TOKEN = 4;
/** What one image costs; vision encoders use a fixed number of patches per image, in this range. */
export const IMAGE_TOKEN_BUDGET = 768;
/** Per-message framing (role markers, template tokens) that no character count sees. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Room kept for the answer when suggesting pages, a window or a cut: a prompt that fills the window leaves none. */
export const ANSWER_ROOM = 512;
/** The window assumed when the server has not said one: Ollama's default `num_ctx`. */
export const DEFAULT_CONTEXT_WINDOW = 4096;

/**
 * The one "fits" rule (context audit #2): a request of `tokens` fits a window of `window` when at least one token
 * is left for the answer. The meter, the Send button, main's preflight and the Make-room plan all ask this, so they
 * agree at the boundary (a prompt of exactly the window was shown as fitting and then refused). No window known:
 * the server decides, nothing is refused here.
 */
export function fitsWindow(tokens: number, window: number | undefined | null): boolean {
  return window === undefined || window === null || tokens < window;
}

/**
 * A character-rule count in the model's own tokens: scaled by what the server counted for this model (the ratio
 * main learns, 1 where none is known). One rounding everywhere, so a file's chip and the refusal that names it say
 * the same number (context audit #5).
 */
export function calibratedTokens(raw: number, ratio: number): number {
  return Math.ceil(raw * ratio);
}

export interface EstimateInput {
  /** Characters of text (messages, tool calls and results, attachments whose cost is not known apart). */
  chars: number;
  images: number;
  messages: number;
  /** Tokens of attachments counted on their own: what each will cost as sent (src/shared/attachment-text.ts). */
  attachmentTokens: number;
}

/**
 * What one attachment costs as it will be sent, in tokens (its extracted text with the chosen pages, or an
 * image's cost for the model), or `undefined` when that is not known yet.
 */
export type AttachmentCost = (block: AttachmentBlock) => number | undefined;

/**
 * What one image costs a model. Anthropic documents its rule (about width × height / 750 tokens, after its own
 * scaling to at most 1568 px); for local vision encoders the fixed budget stands in.
 */
export function imageTokens(anthropic: boolean, size?: { width: number; height: number }): number {
  if (anthropic && size) return Math.ceil((size.width * size.height) / 750);
  return IMAGE_TOKEN_BUDGET;
}

export function estimateTokens(input: EstimateInput): number {
  return (
    Math.ceil(input.chars / CHARS_PER_TOKEN) +
    input.images * IMAGE_TOKEN_BUDGET +
    input.messages * MESSAGE_OVERHEAD_TOKENS +
    input.attachmentTokens
  );
}

/** What the turns of a branch contribute; reasoning is not sent back, so it costs nothing. */
export function measureTurns(turns: readonly Pick<Turn, 'blocks'>[], cost?: AttachmentCost): EstimateInput {
  const out: EstimateInput = { chars: 0, images: 0, messages: 0, attachmentTokens: 0 };
  for (const turn of turns) {
    out.messages++;
    for (const block of turn.blocks) {
      // Lengths of strings only: a row an older, laxer import left must not turn the meter into NaN.
      if (block.type === 'text') out.chars += lengthOf(block.text);
      else if (block.type === 'tool_result') out.chars += lengthOf(block.content);
      else if (block.type === 'tool_call') out.chars += lengthOf(block.argumentsRaw) + lengthOf(block.name);
      else if (block.type === 'attachment') {
        const known = cost?.(block);
        if (known !== undefined) out.attachmentTokens += known;
        // Not measured yet (the composer is still asking main): an image's fixed budget, a file's byte size.
        else if (block.kind === 'image') out.images++;
        else out.chars += block.size;
      }
    }
  }
  return out;
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' ? value.length : 0;
}

export function addInputs(a: EstimateInput, b: EstimateInput): EstimateInput {
  return {
    chars: a.chars + b.chars,
    images: a.images + b.images,
    messages: a.messages + b.messages,
    attachmentTokens: a.attachmentTokens + b.attachmentTokens,
  };
}
