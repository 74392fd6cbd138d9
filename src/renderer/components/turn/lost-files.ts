import type { AttachmentBlock } from '../../../shared/turn';

/**
 * What an edit kept across a reload says of the files added in it that main no longer has, as the message box says of
 * a file no longer stored (“notes.pdf” is no longer stored; attach it again.): which ones, and what to do.
 */
export function lostFilesMessage(lost: readonly AttachmentBlock[]): string {
  const names = lost.map((b) => `“${b.name}”`);
  const listed = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `${listed} could not be found again; attach ${names.length === 1 ? 'it' : 'them'} again.`;
}
