/**
 * The tool calls running now, each with its last progress. The page learns of them from `chat:tool-progress`
 * events only, so a page that read the chat again (its link to serve mode back after a drop, a reload, another
 * tab) showed a call still running as "Waiting for the result…", without its progress or Stop, until it ended.
 * Opening a chat now says which of its calls run (ConversationView `toolsRunning`).
 */
import type { ToolProgress } from '../../shared/mcp';

export class RunningTools {
  private readonly running = new Map<string, ToolProgress>();

  /** A call's progress as sent to the page: `running` keeps it, `done` drops it. */
  note(progress: ToolProgress): void {
    const key = `${progress.turnId}\u0000${progress.toolCallId}`;
    if (progress.state === 'running') this.running.set(key, progress);
    else this.running.delete(key);
  }

  /** The calls of `conversationId` running now. */
  of(conversationId: string): ToolProgress[] {
    return [...this.running.values()].filter((p) => p.conversationId === conversationId);
  }
}
