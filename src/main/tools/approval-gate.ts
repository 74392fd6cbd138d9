import type { WithdrawnReason } from '../../shared/system-turns';

/** `allow-always`: this tool runs without asking from now on (MCP tools; remembered in Settings → Tools). */
export type ApprovalDecision = 'allow-once' | 'allow-conversation' | 'allow-always' | 'deny';

/** How a wait ends: the user's decision, or the card withdrawn because its tool went away in Settings → Tools. */
export type ApprovalOutcome = { decision: ApprovalDecision } | { withdrawn: WithdrawnReason };

/** Which call a decision is for: tool-call ids repeat across chats (`call_0`), so the turn and chat are part of it. */
export interface ApprovalKey {
  conversationId: string;
  /** The assistant turn that made the call. */
  turnId: string;
  toolCallId: string;
}

/**
 * The user's answers to `tool-approval` cards. A step that needs approval waits here until the renderer answers
 * (`chat:approve-tool`) or the turn is stopped. Waiting calls are keyed by conversation, turn and call (issue 15:
 * keyed by call id alone, two chats waiting on `call_0` at once wedged one of them). "Allow for this
 * conversation" is remembered in memory for the life of the process: a restart asks again, which errs on the
 * side of asking.
 */
export class ApprovalGate {
  private readonly allowed = new Set<string>();
  private readonly pending = new Map<string, { tool: string; done: (outcome: ApprovalOutcome) => void }>();

  isAllowed(conversationId: string, tool: string): boolean {
    return this.allowed.has(join(conversationId, tool));
  }

  /** Resolves with the user's decision; a stop while waiting resolves `deny`. */
  wait(key: ApprovalKey, tool: string, signal: AbortSignal): Promise<ApprovalOutcome> {
    const id = pendingId(key);
    return new Promise((resolve) => {
      const done = (outcome: ApprovalOutcome) => {
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(id);
        // "Always allow" is kept by the tool itself (Settings → Tools, "Run without asking"), and only there: a
        // grant for this chat beside it outlived that switch turned off again, or the server's program changed.
        if ('decision' in outcome && outcome.decision === 'allow-conversation') this.allowed.add(join(key.conversationId, tool));
        resolve(outcome);
      };
      const onAbort = () => done({ decision: 'deny' });
      if (signal.aborted) return done({ decision: 'deny' });
      signal.addEventListener('abort', onAbort);
      this.pending.set(id, { tool, done });
    });
  }

  /** Applies a decision; false when that call of that turn in that conversation is not waiting. */
  decide(key: ApprovalKey, decision: ApprovalDecision): boolean {
    const waiting = this.pending.get(pendingId(key));
    waiting?.done({ decision });
    return waiting !== undefined;
  }

  /**
   * Ends the waits of the tools `matches` picks (by the key they wait under: an MCP tool's names its server): their
   * server was removed or switched off, so an Allow could no longer run what the card says. Returns how many.
   */
  withdraw(matches: (tool: string) => boolean, why: WithdrawnReason): number {
    const ended = [...this.pending.values()].filter((w) => matches(w.tool));
    for (const w of ended) w.done({ withdrawn: why });
    return ended.length;
  }

  /** Whether a run of this conversation waits for the user's answer to an approval card. */
  waitingIn(conversationId: string): boolean {
    const prefix = join(conversationId, '');
    for (const id of this.pending.keys()) if (id.startsWith(prefix)) return true;
    return false;
  }
}

function pendingId(key: ApprovalKey): string {
  return join(key.conversationId, key.turnId, key.toolCallId);
}

function join(...parts: string[]): string {
  return parts.join('\u0000');
}
