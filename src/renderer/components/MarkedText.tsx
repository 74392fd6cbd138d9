import { directionControlParts } from '../markdown/invisible-chars';

/**
 * Plain text a person wrote (a message, a title they typed) with each direction control in it marked as in a model's
 * prose (markdown/invisible-chars.ts): a right-to-left override in "open \u202Efdp.exe" showed "open exe.pdf", and
 * its effect ran on over the rest of the line. The marker isolates it and shows its code point; the character stays,
 * so what is copied is what was written. Text without one is the same string child as before.
 */
export function MarkedText({ text }: { text: string }) {
  const parts = directionControlParts(text);
  if (parts.length === 1 && typeof parts[0] === 'string') return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        typeof part === 'string' ? (
          part
        ) : (
          <span key={i} className="invisible-char" data-code-point={part.point} title={part.title}>
            {part.ch}
          </span>
        ),
      )}
    </>
  );
}
