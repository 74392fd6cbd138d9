import type { ThinkMode } from '../../shared/connections';
import { textTokens } from '../../shared/attachment-text';
import { DEFAULT_CONTEXT_WINDOW, estimateTokens, fitsWindow, imageTokens, measureTurns, type AttachmentCost } from '../../shared/context-estimate';
import type { JsonObject } from '../../shared/json';
import { contextRefusedText, roomWays, type RefusalParts } from '../../shared/system-turns';
import { turnText, type AttachmentBlock, type Turn } from '../../shared/turn';
import { materializerOf, type AttachmentMaterializer, type MaterializedAttachment } from '../dialects/shared/materialize';
import type { EncodeInput, ToolSchema } from '../dialects/types';
import type { Calibration } from './calibration';
import { isSummaryTurn } from './context-edits';
import { joinAdjacentUserTurns, sendableHistory } from './history';
import { largestItems, refusalPartsOf, type LargestItem } from './preflight';
import { planThink, templateOpensThink } from './think';
import type { EngineConnection, IdentityLayer, ModelCapabilities } from './types';

export interface AssembleInput {
  connection: EngineConnection;
  model: string;
  /** The branch root first, up to the turn being answered. */
  branch: readonly Turn[];
  /** App default, alias, conversation: later layers win; system prompts are joined in that order. */
  layers: readonly (IdentityLayer | undefined)[];
  think?: ThinkMode;
  caps: ModelCapabilities;
  /** Tools this app offers; sent only where the model supports tools. */
  tools: ToolSchema[];
  calibration: Calibration;
  /** What each attachment becomes on the wire (src/main/documents/attachment-content.ts), prepared beforehand. */
  materialize?: AttachmentMaterializer;
  /** Without `materialize`: attachment bytes by digest (images as stored, text files decoded). */
  resolveAttachment?: (id: string) => Uint8Array | undefined;
  /** The rendered prompt ends inside a think block (llama-server /apply-template); else judged from the template. */
  thinkOpen?: boolean;
  /** Ollama's window when no layer names one: the kept or recommended window (default 4096). */
  defaultWindow?: number;
  /** A cap on the answer's tokens (the title lane's budget); none for a chat answer. */
  maxTokens?: number;
  /** The prompt's exact size as the server counted it (llama-server /tokenize): used instead of the estimate. */
  counted?: number;
  /** Build the request even when the estimate is over the window (the server is about to count it exactly). */
  ignoreWindow?: boolean;
  /** Also list this many of the request's largest parts (the choices of a refusal, issue 21). */
  largest?: number;
  /**
   * The branch is history only: the message to be sent is not in it (the meter's measure adds the draft). Every
   * image in it then goes as a note to a model that cannot see, none is the one being sent.
   */
  historyOnly?: boolean;
}

export type Assembled =
  | {
      kind: 'send';
      body: string;
      /** Digests of the images inlined in `body`, scaled copies included (the step store keeps them as references). */
      attachments: string[];
      /**
       * The chat's images that went as a note, the model unable to read them (recorded with the answer); undefined
       * when the request has none (the branch has no image, or none that is sent).
       */
      imagesNotSent?: number;
      /** Estimate before and after the per-model correction. */
      rawEstimate: number;
      estimate: number;
      window: number | undefined;
      tools: ToolSchema[];
      thinkOpen: boolean;
      /** With `largest` asked for: the request's largest parts, attachments as sent. */
      largest?: LargestItem[];
      /** With `largest` asked for: what takes the room, for a refusal the engine makes on its own exact count. */
      parts?: RefusalParts;
    }
  | { kind: 'refused'; source: 'context-refused'; message: string; meta: JsonObject }
  | { kind: 'no-vision'; message: string };

/** Assemble (DESIGN.md §2): the exact request, or the reason nothing may be sent. Pure but for the encode. */
export function assemble(input: AssembleInput): Assembled {
  const { connection, model, caps } = input;
  const sendable = sendableHistory(input.branch);
  // A summary standing in for the oldest turns (issue 21) joins the leading system message: many chat templates
  // accept one system message, first, and nothing else.
  const lead = sendable.findIndex((t) => !isSummaryTurn(t));
  const summaries = lead < 0 ? sendable : sendable.slice(0, lead);
  const rest = sendable.slice(summaries.length);
  // Images go to a model that can see. For one that cannot, those a tool returned and those of earlier messages go
  // as a note saying they were left out, so a chat that once had an image can go on with it (files audit #6); an
  // image in the message being answered is refused, since that question is about it.
  const answering = input.historyOnly ? -1 : rest.findLastIndex((t) => t.role === 'user');
  const history = caps.vision === false ? rest.map((t, i) => (i === answering ? t : withoutImages(withoutToolImages(t)))) : rest;
  const imagesInChat = rest.reduce((n, t) => n + notedImages(t), 0);
  const imagesNotSent = caps.vision === false ? rest.reduce((n, t, i) => (i === answering ? n : n + notedImages(t)), 0) : 0;
  const system = [...input.layers.map((l) => l?.systemPrompt?.trim()), ...summaries.map((t) => turnText(t).trim())].filter((s): s is string => !!s);
  const turns: Turn[] = system.length > 0 ? [identityTurn(system.join('\n\n'), sendable[0]?.conversationId ?? ''), ...history] : history;

  const images = turns.flatMap((t) => t.blocks.flatMap((b) => (b.type === 'attachment' && b.kind === 'image' ? [b] : [])));
  if (images.length > 0 && caps.vision === false) {
    const names = images.map((i) => i.name).join(', ');
    return {
      kind: 'no-vision',
      message: `${model} cannot read images (the server does not list vision for it), so nothing was sent. Pick a model that can see and press Retry, or ask again without ${names}.`,
    };
  }

  const params: Record<string, number | string | boolean> = {};
  let window: number | undefined;
  for (const layer of input.layers) {
    Object.assign(params, layer?.params ?? {});
    if (layer?.contextWindow !== undefined) window = layer.contextWindow;
  }
  // llama-server's n_ctx is fixed at launch: nothing a request says can raise it.
  if (caps.serverContext !== undefined) window = Math.min(window ?? caps.serverContext, caps.serverContext);
  // The built-in engine allocates what the request says: an alias saved before windows past the trained context were
  // refused (builtin audit #5) asked 1,000,000 tokens of a model trained for 32,768, and got them (2.2 GiB held).
  if (connection.kind === 'builtin' && caps.trainedContext !== undefined && window !== undefined) window = Math.min(window, caps.trainedContext);
  // Ollama and the built-in engine allocate what the request says: a window is always stated.
  if (window === undefined && (connection.kind === 'ollama' || connection.kind === 'builtin')) window = input.defaultWindow ?? DEFAULT_CONTEXT_WINDOW;
  const thinkMode = [input.think, ...input.layers.map((l) => l?.think)].find((m) => m !== undefined);
  const plan = planThink(thinkMode, connection.kind, caps);
  Object.assign(params, plan.params ?? {});
  const tools = caps.tools === true ? input.tools : [];

  // Each attachment is materialized once: what the estimate counts is what the dialect then encodes.
  const materialized = new Map<AttachmentBlock, MaterializedAttachment>();
  const baseMaterialize = materializerOf(input);
  const materialize: AttachmentMaterializer = (block) => {
    let m = materialized.get(block);
    if (!m) materialized.set(block, (m = baseMaterialize(block)));
    return m;
  };
  const cost = attachmentCost(materialize, connection.kind === 'anthropic');
  const toolChars = tools.reduce((n, t) => n + JSON.stringify(t).length, 0);
  const measured = measureTurns(turns, cost);
  const rawEstimate = estimateTokens({ ...measured, chars: measured.chars + toolChars });
  const estimate = input.counted ?? input.calibration.apply(model, rawEstimate);
  if (window !== undefined && !fitsWindow(estimate, window) && !input.ignoreWindow) {
    const calibrate = (raw: number) => input.calibration.apply(model, raw);
    const largest = largestItems(turns, calibrate, cost);
    // What takes the room, and the ways of making it that apply, recorded with the refusal (context audit #1, #4).
    const parts = refusalPartsOf(turns, estimate, toolChars, calibrate, cost);
    const ways = roomWays(parts, estimate, window, connection.kind === 'ollama' || connection.kind === 'builtin' || connection.kind === 'llama-server');
    // The card and its text come from this one meta (DESIGN.md §5).
    const meta = { estimate, window, model, largest, parts: { ...parts }, ways, ...(input.counted !== undefined ? { counted: 'server' as const } : {}) };
    return { kind: 'refused', source: 'context-refused', message: contextRefusedText(meta), meta };
  }

  const encodeInput: EncodeInput = {
    model,
    // Measured and offered for leaving out turn by turn (above); sent with no two user messages in a row.
    turns: joinAdjacentUserTurns(turns),
    stream: true,
    ...(tools.length > 0 ? { tools } : {}),
    ...(Object.keys(params).length > 0 ? { params } : {}),
    ...((connection.kind === 'ollama' || connection.kind === 'builtin') && window !== undefined ? { contextWindow: window } : {}),
    ...(caps.file ? { modelFile: caps.file } : {}),
    ...(plan.think !== undefined ? { think: plan.think } : {}),
    ...(input.maxTokens !== undefined ? { maxTokens: input.maxTokens } : {}),
    materialize,
  };
  const encoded = connection.dialect.encode(encodeInput);
  plan.patch?.(encoded);
  // Think-open applies only to text the server did not already separate (issue 16): a request asking llama-server
  // for a `reasoning_format` other than `none` gets the reasoning of the template's open block in
  // `reasoning_content`, so the content that follows is the answer even when no reasoning came first.
  const format = encoded['reasoning_format'];
  const serverSeparates = typeof format === 'string' && format !== 'none';
  const thinkOpen = !serverSeparates && (input.thinkOpen ?? (plan.think !== false && templateOpensThink(caps.template, caps.thinking === true)));
  return {
    kind: 'send',
    body: JSON.stringify(encoded),
    attachments: [...new Set([...materialized.values()].flatMap((m) => (m.kind === 'image' ? [m.digest] : [])))],
    ...(imagesInChat > 0 ? { imagesNotSent } : {}),
    rawEstimate,
    estimate,
    window,
    tools,
    thinkOpen,
    ...(input.largest
      ? {
          largest: largestItems(turns, (raw) => input.calibration.apply(model, raw), cost, input.largest),
          parts: refusalPartsOf(turns, estimate, toolChars, (raw) => input.calibration.apply(model, raw), cost),
        }
      : {}),
  };
}

/** The images of `t` that go as a note to a model that cannot see: a message's, and those a tool returned. */
function notedImages(t: Turn): number {
  return t.blocks.filter((b) => b.type === 'attachment' && b.kind === 'image' && (t.role === 'user' || b.toolCallId !== undefined)).length;
}

/** What one attachment costs as materialized: its text by the estimate, an image by its model's rule. */
function attachmentCost(materialize: AttachmentMaterializer, anthropic: boolean): AttachmentCost {
  return (block) => {
    const m = materialize(block);
    if (m.kind === 'text') return textTokens(m.text.length);
    return imageTokens(anthropic, m.width !== undefined && m.height !== undefined ? { width: m.width, height: m.height } : undefined);
  };
}

/** A tool turn without the images its calls returned; each result whose images were dropped says so. */
function withoutToolImages(turn: Turn): Turn {
  const dropped = new Map<string, string[]>();
  for (const b of turn.blocks) if (b.type === 'attachment' && b.toolCallId !== undefined) dropped.set(b.toolCallId, [...(dropped.get(b.toolCallId) ?? []), b.name]);
  if (dropped.size === 0) return turn;
  const blocks = turn.blocks.flatMap((b): Turn['blocks'] => {
    if (b.type === 'attachment' && b.toolCallId !== undefined) return [];
    const names = b.type === 'tool_result' ? dropped.get(b.toolCallId) : undefined;
    return names && b.type === 'tool_result' ? [{ ...b, content: `${b.content}\n[${names.join(', ')}: not sent, this model cannot read images]` }] : [b];
  });
  return { ...turn, blocks };
}

/** A user turn without its images: a note in their place says they were not sent (the note's text is counted). */
function withoutImages(turn: Turn): Turn {
  if (turn.role !== 'user') return turn;
  const names = turn.blocks.flatMap((b) => (b.type === 'attachment' && b.kind === 'image' ? [b.name] : []));
  if (names.length === 0) return turn;
  const blocks = turn.blocks.filter((b) => !(b.type === 'attachment' && b.kind === 'image'));
  const note = `[${names.map((n) => `image ${n}`).join(', ')}: not sent, this model cannot read images]`;
  return { ...turn, blocks: [...blocks, { type: 'text', text: turnText(turn) === '' ? note : `\n\n${note}` }] };
}

function identityTurn(text: string, conversationId: string): Turn {
  return { id: 'identity', conversationId, parentId: null, role: 'system', source: 'identity', blocks: [{ type: 'text', text }], meta: {}, status: 'done', createdAt: 0 };
}
