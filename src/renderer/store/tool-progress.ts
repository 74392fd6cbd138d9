/**
 * Tool calls running now, and their progress (MCP `notifications/progress`), for the call's card: keyed by the
 * assistant turn and the call (call ids repeat across turns). Transient: nothing of it is stored.
 */
import { create } from 'zustand';
import type { FirebrandApi } from '../../shared/bridge';
import type { ToolProgress } from '../../shared/mcp';

export const useToolProgress = create<{ running: Record<string, ToolProgress> }>(() => ({ running: {} }));

export const progressKey = (turnId: string, toolCallId: string) => `${turnId}\u0000${toolCallId}`;

export function connectToolProgress(api: FirebrandApi): void {
  api.chat.onToolProgress((p) => {
    const key = progressKey(p.turnId, p.toolCallId);
    const { [key]: _done, ...rest } = useToolProgress.getState().running;
    useToolProgress.setState({ running: p.state === 'running' ? { ...rest, [key]: p } : rest });
  });
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
