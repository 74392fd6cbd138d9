/**
 * How many images of a chat an answer was written without: its model could not read images, so each went as a note
 * in its place (engine/assemble.ts). Recorded in the answer's meta as its request was made, so the answer's mark
 * ("without the image", AssistantTurn.tsx) says what happened then. It was worked out from the answer's model name in
 * the model list of the connection in use now, so after a switch of connections it could be wrong, or gone.
 */
import type { Turn } from './turn';

export const IMAGES_NOT_SENT_KEY = 'imagesNotSent';

/**
 * The count recorded with `turn` (0: every image went); undefined for an answer whose request had no image, or one
 * from before the record.
 */
export function imagesNotSentOf(turn: Pick<Turn, 'meta'>): number | undefined {
  const n = turn.meta[IMAGES_NOT_SENT_KEY];
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** `turn` with the count of images its request went without recorded. */
export function withImagesNotSent<T extends Pick<Turn, 'meta'>>(turn: T, count: number): T {
  return { ...turn, meta: { ...turn.meta, [IMAGES_NOT_SENT_KEY]: count } };
}
