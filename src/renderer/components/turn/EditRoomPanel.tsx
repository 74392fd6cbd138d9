import type { EditSpec } from '../../../shared/context-ipc';
import type { Turn } from '../../../shared/turn';
import { useStore } from '../../store';
import { RoomChoices } from '../context/RoomChoices';
import { useRoomPlan } from '../context/use-room-plan';

/**
 * Make room from a sent message's edit form, when the edit does not fit the window (issue 21, as under the message
 * box): the ways on, measured by main for the branch as it will be after the edit (the turns before the message,
 * then the edit with its files; the turns after it are not sent). A choice sends the edit once it has made room;
 * until then, and whatever fails or is cancelled, the form keeps the edit's text and files.
 */
export function EditRoomPanel({ turn, spec, onSent }: { turn: Turn; spec: EditSpec; onSent: () => void }) {
  const activeId = useStore((s) => s.activeId);
  const selected = useStore((s) => s.selectedModel);
  const window = useStore((s) => s.contextChoice?.contextWindow);
  // What the plan stands on: a new key asks main again (the text, the files kept and added, the model, its window).
  const files = [...(spec.keepAttachments ?? ['all']), ...(spec.attachments ?? []).map((b) => `${b.id}|${b.pages ? `${b.pages.from}-${b.pages.to}` : ''}`)].join(',');
  const key = `${selected ?? ''}|${window ?? ''}|${files}|${spec.text}`;
  const room = useRoomPlan(activeId, activeId !== null && selected !== null, key, 0, spec);
  if (activeId === null) return null;
  return (
    <div className="card room-panel" data-testid="turn-edit-room-panel">
      <RoomChoices conversationId={activeId} state={room.state} keepFrom={room.keepFrom} onKeepFrom={room.setKeepFrom} edit={{ turn, spec, onSent }} />
    </div>
  );
}
