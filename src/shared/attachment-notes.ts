/**
 * What the model is told about an attachment it cannot read, said the same way on the wire (the dialects) and in
 * the composer's chip, so the user knows exactly what the model gets.
 */

export const PDF_MIME = 'application/pdf';

/** A PDF's bytes are compressed streams, not text: decoding them as UTF-8 would feed the model garbage. */
export function pdfNote(name: string): string {
  return `[PDF "${name}" attached — its text could not be extracted]`;
}
