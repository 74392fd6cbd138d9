/**
 * What keeps a message from being sent, as the message box says it: a file still being read or one that cannot be
 * read, an image for a model that cannot see, a message longer than the window, nothing typed. The message box and
 * a sent message's edit form (Edit, then Send) ask the same questions and say the same words; before, the edit form
 * asked none of them, and an edit sent an image to a model that cannot see (a failed answer) or a message over the
 * window (a refusal card) where the message box would have said why first.
 */
import type { AttachmentBlock } from '../../../shared/turn';
import type { CostState } from '../../store/attachment-costs';

/** Whether `model` is known not to read images. Unknown capabilities do not block images: the server is the one to say no. */
export function cannotSee(model: { capabilities?: string[] | undefined } | undefined): boolean {
  return model?.capabilities !== undefined && !model.capabilities.includes('vision');
}

/** The first file whose text main is still reading for the model (an image is not read). */
export function readingFile(items: readonly AttachmentBlock[], stateOf: (b: AttachmentBlock) => CostState | undefined): AttachmentBlock | undefined {
  return items.find((b) => b.kind !== 'image' && stateOf(b)?.status !== 'done' && stateOf(b)?.status !== 'failed');
}

/** The first file main could not read (a damaged PDF, an image it could not decode, a read that failed). */
export function unreadableFile(items: readonly AttachmentBlock[], stateOf: (b: AttachmentBlock) => CostState | undefined): AttachmentBlock | undefined {
  return items.find((b) => {
    const st = stateOf(b);
    return st?.status === 'failed' || (st?.status === 'done' && st.inspection.error !== null);
  });
}

export interface MessageChecks {
  text: string;
  items: readonly AttachmentBlock[];
  stateOf: (b: AttachmentBlock) => CostState | undefined;
  /** The chosen model's name as the picker shows it. */
  modelName: string | null;
  /** The chosen model is known not to read images (cannotSee). */
  noVision: boolean;
  /** Why the message does not fit the window (tooLongReason); null when it fits or no window is known yet. */
  overReason: string | null;
}

/** Why this message cannot be sent as it is, in the message box's words; null when nothing in it stands in the way. */
export function messageRefusal(c: MessageChecks): string | null {
  const empty = c.text.trim() === '' && c.items.length === 0;
  const reading = readingFile(c.items, c.stateOf);
  const unreadable = unreadableFile(c.items, c.stateOf);
  const imagesRefused = c.noVision && c.items.some((b) => b.kind === 'image');
  if (c.overReason && !reading) return c.overReason;
  if (empty) return 'Type a message.';
  if (reading) return `Reading ${reading.name}…`;
  if (unreadable) return `${unreadable.name} cannot be read (see its chip). Remove it to send.`;
  if (imagesRefused) return `${c.modelName} cannot read images. Pick a vision model or remove the image.`;
  return null;
}
