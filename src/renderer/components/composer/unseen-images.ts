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
import { imagesNotSentOf } from '../../../shared/images-not-sent';
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

type BranchTurn = Pick<Turn, 'id' | 'role' | 'source' | 'meta' | 'blocks'>;

/** Per branch (the store's turns array), each turn's count of images before it: see imagesAnswerDidNotSee. */
const countsByBranch = new WeakMap<readonly BranchTurn[], Map<string, number>>();

/**
 * How many images earlier on the branch an answer was written without, its model unable to read them: those before
 * `answerId` (its own tool's images included, as the footer is on the answer's last step). 0 when it is not on it.
 * Every answer's footer asks on each change of the store, a streamed part among them: the counts are made in one pass
 * per branch and kept with it, not a pass of the branch per footer.
 */
export function imagesAnswerDidNotSee(branch: readonly BranchTurn[], answerId: string): number {
  let counts = countsByBranch.get(branch);
  if (!counts) {
    counts = countsBefore(branch);
    countsByBranch.set(branch, counts);
  }
  return counts.get(answerId) ?? 0;
}

/**
 * How many of the chat's images `answer` (a run's last step) was written without: what main recorded as its request
 * was made (shared/images-not-sent.ts). An answer from before that record is judged as it was, by whether the model
 * list read now says its model cannot see (`cannotSeeNow`, asked only then): a switch of connections can make that
 * wrong, which is why the record is made.
 */
export function imagesAnswerWentWithout(branch: readonly BranchTurn[], answer: Pick<Turn, 'id' | 'meta'>, cannotSeeNow: () => boolean): number {
  const recorded = imagesNotSentOf(answer);
  if (recorded !== undefined) return recorded;
  return cannotSeeNow() ? imagesAnswerDidNotSee(branch, answer.id) : 0;
}

/**
 * For each turn, unseenImages(branch up to it).length in one pass: a card (a summary, turns or a file left out)
 * takes back the images it stands for from the turns after it, as unseenImages reads a branch that ends after it.
 */
function countsBefore(branch: readonly BranchTurn[]): Map<string, number> {
  const counts = new Map<string, number>();
  /** The images counted so far, per turn, by their place in it: a left-out item names its turn and the image's id. */
  const counted = new Map<string, AttachmentBlock[]>();
  let total = 0;
  const takeBack = (turnId: string, imageId?: string) => {
    const images = counted.get(turnId);
    if (!images) return;
    const kept = imageId === undefined ? [] : images.filter((b) => b.id !== imageId);
    total -= images.length - kept.length;
    counted.set(turnId, kept);
  };
  for (const t of branch) {
    counts.set(t.id, total);
    if (t.role === 'system') {
      const summary = t.source === 'compaction' ? compactionMeta(t.meta) : undefined;
      for (const id of summary?.covered ?? []) takeBack(id);
      const dropped = t.source === 'context-dropped' ? droppedMeta(t.meta) : undefined;
      for (const id of dropped?.turns ?? []) takeBack(id);
      for (const item of dropped?.items ?? []) if (item.kind === 'attachment') takeBack(item.turnId, item.id);
      continue;
    }
    if (t.role !== 'user' && t.role !== 'tool') continue;
    const images = t.blocks.filter((b): b is AttachmentBlock => b.type === 'attachment' && b.kind === 'image' && (t.role === 'user' || b.toolCallId !== undefined));
    counted.set(t.id, images);
    total += images.length;
  }
  return counts;
}
