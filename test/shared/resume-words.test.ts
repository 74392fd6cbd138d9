/**
 * What a stopped Ollama pull says "Pull again" does. Ollama keeps a layer's partial file and its parts' progress when
 * the pull's request goes, and a second pull goes on from them (its server/download.go, blobDownload.Prepare), so
 * where bytes arrived the row says they are kept. Where none did, it promised to "resume where it stopped".
 */
import { describe, expect, it } from 'vitest';
import { pullCancelledWords } from '../../src/shared/resume-words';

describe('a cancelled pull', () => {
  it('says Ollama keeps what arrived where bytes came, and that nothing did where none came', () => {
    expect(pullCancelledWords(400)).toBe('Cancelled. Ollama keeps what arrived: Pull again goes on from there.');
    expect(pullCancelledWords(0)).toBe('Cancelled before anything arrived.');
  });
});
