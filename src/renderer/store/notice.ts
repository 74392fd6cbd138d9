/**
 * The notice banner's one message and what its button does. Message and action are set together (showNotice in
 * app-state.ts), so a new message never inherits an older one's Retry: round 10 kept them in separate fields, and
 * Retry on "Choose a model first." repeated whatever had failed before it.
 */
export type NoticeAction =
  /** Retry repeats the action that failed (with what the user gave it). */
  | { kind: 'retry'; run: () => void }
  /** A failure that left no action to repeat: Retry reads everything shown again. */
  | { kind: 'reread' }
  /**
   * The chosen model changed by itself (deleted, gone from the server), or none is chosen: "Choose a model" opens
   * the picker. Nothing failed, but the user has a step to take: drawn as a warning (amber, role="status").
   */
  | { kind: 'choose-model' }
  /** Refused for what it is (a file too large, the clipboard refused): nothing to retry, Close only, drawn as a failure. */
  | { kind: 'refused' }
  /**
   * Only informs, nothing failed (an export saved, a chat deleted in another window): Close only, drawn calmly and
   * said politely (role="status"). Drawn as an alert, a user read "Exported …" as an error.
   */
  | { kind: 'info' };

export interface Notice {
  /** In words for the user; the draft is kept. */
  message: string;
  action: NoticeAction;
  /**
   * The chat whose answer, once it ends, takes this notice away: a message refused while an answer was still being
   * written there (in another window). It stayed up after that answer ended, saying to wait for it.
   */
  untilAnswerEndsIn?: string;
}

export const INFO: NoticeAction = { kind: 'info' };

/** A failure that trying again would not mend: its banner keeps the error's look and role, with Close only. */
export const REFUSED: NoticeAction = { kind: 'refused' };

/** The chosen model changed by itself, or none is chosen: the banner offers the picker. */
export const CHOOSE_MODEL: NoticeAction = { kind: 'choose-model' };

/** A branch action asked with no model chosen: its notice offers the picker. */
export const CHOOSE_A_MODEL = 'Choose a model first.';

/** Retry repeats `run`; without one, Retry reads everything shown again. */
export function retryWith(run?: () => void): NoticeAction {
  return run ? { kind: 'retry', run } : { kind: 'reread' };
}
