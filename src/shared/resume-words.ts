/**
 * What going on after a stop does, said the way its button is called, for both kinds of download: the built-in
 * downloads' Resume and an Ollama pull's "Pull again". Each says whether what arrived is kept, so the two never
 * promise different things for the same kind of stop.
 */

/**
 * What the Resume button of a built-in download does next: `bytes` on disk are gone on from, none are asked for
 * again. The download messages said "start it again to resume" beside a button called Resume.
 * `first`: what to do before pressing it (free some space), said first.
 */
export function resumeWords(bytes: number, first?: string): string {
  if (first === undefined) return bytes > 0 ? 'What arrived is kept: Resume goes on from there.' : 'Resume tries again.';
  return bytes > 0 ? `What arrived is kept: ${first}, then Resume goes on from there.` : `${first[0]?.toUpperCase() ?? ''}${first.slice(1)}, then Resume tries again.`;
}

/**
 * What "Pull again" does after a pull stopped with `bytes` reported complete. Ollama keeps each layer's partial file
 * with its parts' progress (`<blob>-partial-N`, read back by blobDownload.Prepare in its server/download.go) when
 * the pull's request goes (a cancel, Firebrand restarted, the link cut), and a second pull of the name goes on from
 * them, layers already whole not fetched again. It said "Pull again to resume" also where nothing had arrived.
 * (Ollama restarted an hour or more after the stop prunes those files at its start: not said, as rare and harmless.)
 */
export function pullAgainWords(bytes: number): string {
  return bytes > 0 ? 'Ollama keeps what arrived: Pull again goes on from there.' : 'Pull again tries again.';
}

/** What a pull cancelled with `bytes` reported complete says under its row. */
export function pullCancelledWords(bytes: number): string {
  return bytes > 0 ? `Cancelled. ${pullAgainWords(bytes)}` : 'Cancelled before anything arrived.';
}
