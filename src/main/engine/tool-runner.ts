import { toolApprovalText, withdrawnResultText, type ToolApprovalMeta, type WithdrawnReason } from '../../shared/system-turns';
import type { AttachmentBlock, ToolCallBlock, ToolResultBlock, Turn } from '../../shared/turn';
import type { ConversationStore } from '../db/conversation-store';
import type { EmitEvent } from '../events';
import type { ApprovalGate } from '../tools/approval-gate';
import type { ToolRegistry } from '../tools/registry';
import { ToolFailure, type Tool, type ToolOutcome } from '../tools/types';
import type { JsonValue } from '../../shared/json';
import type { ToolProgress } from '../../shared/mcp';
import type { RunningTools } from './running-tools';

export interface ToolRunDeps {
  store: ConversationStore;
  emit: EmitEvent;
  tools: ToolRegistry;
  approvals: ApprovalGate;
  newId: () => string;
  now: () => number;
  readBlob: (digest: string) => Uint8Array | undefined;
  /** A document's extracted text, for read_document (src/main/documents/attachment-content.ts). */
  documentText?: (block: AttachmentBlock) => string | undefined;
  /** Stores an image a tool returned (the blob store); without it, images in results are named, not kept. */
  storeImage?: (bytes: Uint8Array, mime: string, name: string) => Promise<AttachmentBlock>;
  /** The calls running now, for a page that opens the chat meanwhile (running-tools.ts). */
  running?: RunningTools;
}

/**
 * Runs the calls of one assistant turn in order and answers each with a `tool_result` block. Invalid calls,
 * unknown tools, denied approvals and tools that throw all become error results sent back to the model: the
 * loop goes on and the model may correct itself. A `tool-approval` card (a system turn) is written into the
 * chain before a call that needs the user's approval; the results' tool turn then hangs below it.
 * Returns the results, the images they returned (attachment blocks naming their call, for the tool turn), and the
 * id the tool turn should hang under.
 */
export async function runToolCalls(
  deps: ToolRunDeps,
  turn: Turn,
  history: readonly Turn[],
  signal: AbortSignal,
): Promise<{ results: ToolResultBlock[]; images: AttachmentBlock[]; parentId: string }> {
  let parentId = turn.id;
  const results: ToolResultBlock[] = [];
  const images: AttachmentBlock[] = [];
  const calls = turn.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call' && (b.state === 'complete' || b.state === 'invalid'));
  for (const call of calls) {
    const answer = (o: ToolOutcome & { stopped?: boolean }, notRun = false) => {
      const how = notRun ? { notRun } : o.stopped ? { stopped: true } : {};
      results.push({ type: 'tool_result', toolCallId: call.id, name: call.name, content: o.content, isError: o.isError, ...how, ...(o.note ? { note: o.note } : {}) });
      for (const image of o.images ?? []) images.push({ ...image, toolCallId: call.id });
    };
    if (signal.aborted) {
      answer({ content: 'Not run: stopped by the user before this tool ran.', isError: true }, true);
      continue;
    }
    if (call.state === 'invalid' || call.arguments === undefined) {
      answer({ content: call.error ?? `The call to ${call.name} could not be read; send valid JSON arguments.`, isError: true });
      continue;
    }
    const tool = deps.tools.get(call.name);
    if (!tool) {
      const names = deps.tools.schemas().map((s) => s.name).join(', ');
      answer({ content: `There is no tool named ${call.name}. Available: ${names || 'none'}.`, isError: true });
      continue;
    }
    // Keyed by the tool, not the name it is offered under: a name moves to another server's tool when the first
    // is switched off, and what the user allowed was that first tool.
    const allowedAs = tool.approvalKey ?? call.name;
    if (tool.needsApproval && !deps.approvals.isAllowed(turn.conversationId, allowedAs)) {
      const card = await askApproval(deps, turn, parentId, call, tool.describeCall?.(call.arguments) ?? call.argumentsRaw, signal, allowedAs, tool.server);
      parentId = card.id;
      if (card.withdrawn) {
        answer({ content: withdrawnResultText(call.name, tool.server, card.withdrawn), isError: true }, true);
        continue;
      }
      if (card.decision === 'deny') {
        answer({ content: signal.aborted ? 'Not run: stopped by the user.' : `The user did not allow ${call.name} for this request. Do not retry it; answer without it.`, isError: true }, true);
        continue;
      }
      if (card.decision === 'allow-always') tool.allowAlways?.();
    }
    const outcome = await runOne(deps, turn, call, call.arguments, tool, history, signal);
    // Stopped by the user while it ran: an outcome of the stop, not a failure of the tool (its card says Stopped).
    answer(signal.aborted && outcome.isError ? { ...outcome, stopped: true } : outcome);
  }
  return { results, images, parentId };
}

/** Runs one allowed call; its progress goes to the card while it runs, and a throw becomes an error result. */
async function runOne(deps: ToolRunDeps, turn: Turn, call: ToolCallBlock, args: JsonValue, tool: Tool, history: readonly Turn[], signal: AbortSignal): Promise<ToolOutcome> {
  const progress = (state: ToolProgress['state'], p?: { progress: number; total?: number; message?: string }) => {
    const now: ToolProgress = { conversationId: turn.conversationId, turnId: turn.id, toolCallId: call.id, state, progress: p?.progress ?? null, total: p?.total ?? null, message: p?.message ?? null };
    deps.running?.note(now);
    deps.emit('chat:tool-progress', now);
  };
  progress('running');
  try {
    const documentText = deps.documentText;
    const storeImage = deps.storeImage;
    return await tool.run(args, {
      conversationId: turn.conversationId,
      history,
      signal,
      readBlob: deps.readBlob,
      now: deps.now,
      onProgress: (p) => progress('running', p),
      ...(documentText ? { documentText } : {}),
      ...(storeImage ? { storeImage } : {}),
    });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    if (signal.aborted) return { content: why.startsWith('Stopped by the user') ? why : `Stopped by the user before ${call.name} finished.`, isError: true };
    return { content: err instanceof ToolFailure ? why : `${call.name} failed: ${why}`, isError: true };
  } finally {
    progress('done');
  }
}

async function askApproval(deps: ToolRunDeps, turn: Turn, parentId: string, call: ToolCallBlock, what: string, signal: AbortSignal, allowedAs: string, server?: string) {
  const meta: ToolApprovalMeta = { toolCallId: call.id, turnId: turn.id, tool: call.name, ...(server !== undefined ? { server } : {}), call: what, state: 'pending' };
  const card: Turn = {
    id: deps.newId(),
    conversationId: turn.conversationId,
    parentId,
    role: 'system',
    source: 'tool-approval',
    // Text and card derive from the one meta (DESIGN.md §5): the text is rewritten with the decision below.
    blocks: [{ type: 'text', text: toolApprovalText(meta) }],
    meta: { ...meta },
    status: 'done',
    createdAt: deps.now(),
  };
  deps.store.appendRunTurn(card, deps.now());
  deps.emit('chat:turn-saved', { turn: card });
  deps.emit('conversations:changed', { conversationId: turn.conversationId });
  const outcome = await deps.approvals.wait({ conversationId: turn.conversationId, turnId: turn.id, toolCallId: call.id }, allowedAs, signal);
  const settled: Pick<ToolApprovalMeta, 'state'> & ({ withdrawn: WithdrawnReason } | { decision: string }) =
    'withdrawn' in outcome
      ? { state: 'withdrawn', withdrawn: outcome.withdrawn }
      : { state: outcome.decision === 'deny' ? (signal.aborted ? 'stopped' : 'denied') : 'allowed', decision: outcome.decision };
  const decidedMeta: ToolApprovalMeta = { ...meta, ...settled };
  const decided: Turn = { ...card, blocks: [{ type: 'text', text: toolApprovalText(decidedMeta) }], meta: { ...card.meta, ...settled } };
  deps.store.updateTurn(decided);
  deps.emit('chat:turn-saved', { turn: decided });
  return 'withdrawn' in outcome ? { id: card.id, withdrawn: outcome.withdrawn } : { id: card.id, decision: outcome.decision, withdrawn: undefined };
}
