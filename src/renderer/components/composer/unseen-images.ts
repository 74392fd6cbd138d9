/**
 * The images earlier on a branch that a model that cannot read images will not see. Assemble sends each of them as a
 * note in its place ("[image photo.png: not sent, this model cannot read images]", src/main/engine/assemble.ts), so
 * the chat can go on; but the chat still shows the images, and nothing said the model would not get them (vision
 * audit: a user switched from llava to llama3.2 and asked about the photo). The message box says so before Send.
 *
 * Counted as Assemble reads the branch: an image the user attached to a message, or one a tool returned; not one a
 * summary stands in for or one the user left out of the request (context cards, issue 21), which is not sent at all.
 */
import { compactionMeta, droppedMeta } from '../../../shared/context-edits';
import type { AttachmentBlock, Turn } from '../../../shared/turn';

/** The images of `branch` that will go as a note to a model that cannot read images, in the order of the chat. */
export function unseenImages(branch: readonly Pick<Turn, 'id' | 'role' | 'source' | 'meta' | 'blocks'>[]): AttachmentBlock[] {
  const notSent = new Set<string>();
  const leftOut = new Set<string>();
  for (const t of branch) {
    if (t.role !== 'system') continue;
    const summary = t.source === 'compaction' ? compactionMeta(t.meta) : undefined;
    for (const id of summary?.covered ?? []) notSent.add(id);
    const dropped = t.source === 'context-dropped' ? droppedMeta(t.meta) : undefined;
    for (const id of dropped?.turns ?? []) notSent.add(id);
    for (const item of dropped?.items ?? []) if (item.kind === 'attachment') leftOut.add(`${item.turnId}|${item.id}`);
  }
  return branch.flatMap((t) => {
    if (notSent.has(t.id) || (t.role !== 'user' && t.role !== 'tool')) return [];
    return t.blocks.filter(
      (b): b is AttachmentBlock =>
        b.type === 'attachment' && b.kind === 'image' && (t.role === 'user' || b.toolCallId !== undefined) && !leftOut.has(`${t.id}|${b.id}`),
    );
  });
}

/** What the message box says of them: calm, since nothing is refused; null when there are none. */
export function unseenImagesNote(count: number, modelName: string): string | null {
  if (count <= 0) return null;
  const these = count === 1 ? 'The image earlier in this chat' : `The ${count} images earlier in this chat`;
  return `${these} won't be sent: ${modelName} cannot read images. Choose a model that can, or send without ${count === 1 ? 'it' : 'them'}.`;
}

/**
 * How many images earlier on the branch an answer was written without, its model unable to read them: those before
 * `answerId` (its own tool's images included, as the footer is on the answer's last step). 0 when it is not on it.
 */
export function imagesAnswerDidNotSee(branch: readonly Pick<Turn, 'id' | 'role' | 'source' | 'meta' | 'blocks'>[], answerId: string): number {
  const at = branch.findIndex((t) => t.id === answerId);
  return at < 0 ? 0 : unseenImages(branch.slice(0, at)).length;
}
