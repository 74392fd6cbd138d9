import { toolApprovalText, type ToolApprovalMeta } from '../../shared/system-turns';
import type { AttachmentBlock, ToolCallBlock, ToolResultBlock, Turn } from '../../shared/turn';
import type { ConversationStore } from '../db/conversation-store';
import type { EmitEvent } from '../events';
import type { ApprovalGate } from '../tools/approval-gate';
import type { ToolRegistry } from '../tools/registry';
import type { ToolOutcome } from '../tools/types';

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
}

/**
 * Runs the calls of one assistant turn in order and answers each with a `tool_result` block. Invalid calls,
 * unknown tools, denied approvals and tools that throw all become error results sent back to the model: the
 * loop goes on and the model may correct itself. A `tool-approval` card (a system turn) is written into the
 * chain before a call that needs the user's approval; the results' tool turn then hangs below it.
 * Returns the results and the id the tool turn should hang under.
 */
export async function runToolCalls(
  deps: ToolRunDeps,
  turn: Turn,
  history: readonly Turn[],
  signal: AbortSignal,
): Promise<{ results: ToolResultBlock[]; parentId: string }> {
  let parentId = turn.id;
  const results: ToolResultBlock[] = [];
  const calls = turn.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call' && (b.state === 'complete' || b.state === 'invalid'));
  for (const call of calls) {
    const answer = (o: ToolOutcome, notRun = false) =>
      results.push({ type: 'tool_result', toolCallId: call.id, name: call.name, content: o.content, isError: o.isError, ...(notRun ? { notRun } : {}), ...(o.note ? { note: o.note } : {}) });
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
    if (tool.needsApproval && !deps.approvals.isAllowed(turn.conversationId, call.name)) {
      const card = await askApproval(deps, turn, parentId, call, tool.describeCall?.(call.arguments) ?? call.argumentsRaw, signal);
      parentId = card.id;
      if (card.decision === 'deny') {
        answer({ content: signal.aborted ? 'Not run: stopped by the user.' : `The user did not allow ${call.name} for this request. Do not retry it; answer without it.`, isError: true }, true);
        continue;
      }
    }
    try {
      const documentText = deps.documentText;
      answer(await tool.run(call.arguments, { conversationId: turn.conversationId, history, signal, readBlob: deps.readBlob, now: deps.now, ...(documentText ? { documentText } : {}) }));
    } catch (err) {
      answer({ content: `${call.name} failed: ${err instanceof Error ? err.message : String(err)}`, isError: true });
    }
  }
  return { results, parentId };
}

async function askApproval(deps: ToolRunDeps, turn: Turn, parentId: string, call: ToolCallBlock, what: string, signal: AbortSignal) {
  const meta: ToolApprovalMeta = { toolCallId: call.id, turnId: turn.id, tool: call.name, call: what, state: 'pending' };
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
  const decision = await deps.approvals.wait({ conversationId: turn.conversationId, turnId: turn.id, toolCallId: call.id }, call.name, signal);
  const state = decision === 'deny' ? (signal.aborted ? 'stopped' : 'denied') : 'allowed';
  const decidedMeta: ToolApprovalMeta = { ...meta, state, decision };
  const decided: Turn = { ...card, blocks: [{ type: 'text', text: toolApprovalText(decidedMeta) }], meta: { ...card.meta, state, decision } };
  deps.store.updateTurn(decided);
  deps.emit('chat:turn-saved', { turn: decided });
  return { id: card.id, decision };
}
