/**
 * Whether the built-in engine can take a Models → Load now, read from main's status. The engine loads one thing at a
 * time and nothing while it generates, and main refuses a Load meanwhile (src/main/builtin/builtin-service.ts `refuseLoadWhileBusy`).
 * Round 9 disabled Load only while a loaded model answered: while an answer was still loading its model (not in
 * `loaded` yet), every other Load was offered, then refused, and the refusal stayed on screen after the answer ended.
 */
import type { BuiltinStatus } from '../../shared/library';

/** What keeps the engine from loading another model now; null when it is free. */
export type EngineBusy =
  | { kind: 'answering'; file: string }
  /** An answer (or a title) loads its model before its first token; the answer runs once that load ends. */
  | { kind: 'loading-for-answer'; file: string }
  /** A load asked from Models → Load (in any tab). */
  | { kind: 'loading'; file: string };

export function engineBusy(status: BuiltinStatus | null): EngineBusy | null {
  if (!status) return null;
  const answering = status.loaded.find((l) => l.answering);
  if (answering) return { kind: 'answering', file: answering.file };
  const loading = status.loading[0];
  if (loading === undefined) return null;
  // `loading` names both kinds; an answer loading its model is in `waiting` as well, a Models → Load is not.
  const forAnswer = status.waiting.some((w) => w.state === 'loading' && w.file === loading);
  return { kind: forAnswer ? 'loading-for-answer' : 'loading', file: loading };
}

/** Why Load of `file` is not offered now (its hover text), or null when it can be clicked. */
export function loadBlockedReason(status: BuiltinStatus | null, file: string): string | null {
  const busy = engineBusy(status);
  if (!busy || busy.file === file) return null;
  switch (busy.kind) {
    case 'answering':
      return `The engine is answering on ${busy.file}: load ${file} once that answer ends.`;
    case 'loading-for-answer':
      return `The engine is loading ${busy.file} for an answer: load ${file} once that answer ends.`;
    case 'loading':
      return `The engine is loading ${busy.file}: load ${file} once that load ends.`;
  }
}
