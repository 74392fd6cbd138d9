/**
 * Tool calls running now, and their progress (MCP `notifications/progress`), for the call's card: keyed by the
 * assistant turn and the call (call ids repeat across turns). Transient: nothing of it is stored.
 */
import { create } from 'zustand';
import type { FirebrandApi } from '../../shared/bridge';
import type { ToolProgress } from '../../shared/mcp';

export const useToolProgress = create<{ running: Record<string, ToolProgress> }>(() => ({ running: {} }));

export const progressKey = (turnId: string, toolCallId: string) => `${turnId}\u0000${toolCallId}`;

/**
 * Calls this page heard end (the last few hundred): a chat read just before its call ended may say it runs, and
 * the page would then show it running, with Stop, for good.
 */
const ended = new Set<string>();
const ENDED_KEPT = 500;

export function connectToolProgress(api: FirebrandApi): void {
  api.chat.onToolProgress((p) => {
    const key = progressKey(p.turnId, p.toolCallId);
    if (p.state === 'done') {
      ended.add(key);
      if (ended.size > ENDED_KEPT) ended.delete(ended.values().next().value as string);
    }
    const { [key]: _done, ...rest } = useToolProgress.getState().running;
    useToolProgress.setState({ running: p.state === 'running' ? { ...rest, [key]: p } : rest });
  });
}

/**
 * The calls of `conversationId` main says run now (a chat read again: opened, or after the link dropped), in place of
 * what this page had heard of them: the events of a call that started or ended meanwhile never reached it.
 */
export function adoptRunningTools(conversationId: string, running: readonly ToolProgress[] = []): void {
  const kept = Object.entries(useToolProgress.getState().running).filter(([, p]) => p.conversationId !== conversationId);
  const now = running.map((p) => [progressKey(p.turnId, p.toolCallId), p] as const).filter(([key]) => !ended.has(key));
  useToolProgress.setState({ running: Object.fromEntries([...kept, ...now]) });
}

/** "Running…", with the server's numbers and message when it sends them. */
export function progressText(p: ToolProgress): string {
  const numbers = p.progress === null ? '' : p.total !== null ? ` ${p.progress} of ${p.total}` : ` ${p.progress}`;
  return `Running…${numbers}${p.message ? ` ${p.message}` : ''}`;
}

/** Whether a tool call of this assistant turn runs now. */
export function toolRunningIn(running: Record<string, ToolProgress>): (turnId: string) => boolean {
  const turns = new Set(Object.values(running).map((p) => p.turnId));
  return (turnId) => turns.has(turnId);
}
