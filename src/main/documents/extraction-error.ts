import type { ExtractionFailure } from '../../shared/attachment-text';

/** A file whose text cannot be read, with the reason written for the user. */
export class ExtractionError extends Error {
  constructor(
    readonly code: ExtractionFailure['code'],
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }

  toFailure(): ExtractionFailure {
    return { code: this.code, message: this.message };
  }
}
