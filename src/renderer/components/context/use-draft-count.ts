import { useEffect } from 'react';
import { countDraft, useRoom, type DraftCount } from '../../store/context-room';

/** How long typing pauses before main counts the text (a count is a request to the server). */
export const DRAFT_COUNT_PAUSE_MS = 300;

/**
 * Main's count of `text` as the message it would be, asked once typing pauses, where `enabled` (main counts the
 * request, not estimates it, and there is text): the message box's draft, or with `before` an edit of that sent
 * message. `counted` is the count of this very text with this `key`, undefined until it comes; `countNow` asks at
 * once (a message sent before its count came is counted first) and resolves it, undefined where main could not.
 */
export function useDraftCount(key: string | null, text: string, enabled: boolean, before?: string): { counted: DraftCount | undefined; countNow: () => Promise<DraftCount | undefined> } {
  const asking = enabled && key !== null;
  useEffect(() => {
    if (!asking) return;
    const timer = setTimeout(() => void countDraft(key, text, before), DRAFT_COUNT_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [asking, key, text, before]);
  const count = useRoom((s) => (asking ? s.drafts[before ?? ''] : undefined));
  const counted = asking && count && count.key === key && count.text === text ? count : undefined;
  return { counted, countNow: () => (asking ? countDraft(key, text, before) : Promise.resolve(undefined)) };
}
