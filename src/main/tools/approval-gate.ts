export type ApprovalDecision = 'allow-once' | 'allow-conversation' | 'deny';

interface Pending {
  conversationId: string;
  resolve: (decision: ApprovalDecision) => void;
}

/**
 * The user's answers to `tool-approval` cards. A step that needs approval waits here until the renderer answers
 * (`chat:approve-tool`) or the turn is stopped. "Allow for this conversation" is remembered in memory for the
 * life of the process: a restart asks again, which errs on the side of asking.
 */
export class ApprovalGate {
  private readonly allowed = new Set<string>();
  private readonly pending = new Map<string, Pending>();

  isAllowed(conversationId: string, tool: string): boolean {
    return this.allowed.has(key(conversationId, tool));
  }

  /** Resolves with the user's decision; a stop while waiting resolves `deny`. */
  wait(conversationId: string, toolCallId: string, tool: string, signal: AbortSignal): Promise<ApprovalDecision> {
    return new Promise((resolve) => {
      const done = (decision: ApprovalDecision) => {
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(toolCallId);
        if (decision === 'allow-conversation') this.allowed.add(key(conversationId, tool));
        resolve(decision);
      };
      const onAbort = () => done('deny');
      if (signal.aborted) return done('deny');
      signal.addEventListener('abort', onAbort);
      this.pending.set(toolCallId, { conversationId, resolve: done });
    });
  }

  /** Applies a decision; false when no call with that id is waiting in that conversation. */
  decide(conversationId: string, toolCallId: string, decision: ApprovalDecision): boolean {
    const p = this.pending.get(toolCallId);
    if (!p || p.conversationId !== conversationId) return false;
    p.resolve(decision);
    return true;
  }

  isWaiting(toolCallId: string): boolean {
    return this.pending.has(toolCallId);
  }

  /** Whether a run of this conversation waits for the user's answer to an approval card. */
  waitingIn(conversationId: string): boolean {
    for (const p of this.pending.values()) if (p.conversationId === conversationId) return true;
    return false;
  }
}

function key(conversationId: string, tool: string): string {
  return `${conversationId}\u0000${tool}`;
}
