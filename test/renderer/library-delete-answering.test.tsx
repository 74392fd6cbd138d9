/**
 * "Delete…" was offered on a built-in GGUF an answer runs on, then refused with a message far from the row (on a
 * phone, off the screen), while Unload beside it waited with its reason. Delete… now waits the same way, with the
 * same reason on hover.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LibraryItem } from '../../src/renderer/components/library/LibraryItem';
import type { LibraryEntry, LoadedModel } from '../../src/shared/library';

const ENTRY: LibraryEntry = {
  file: 'plain.gguf', path: '/m/plain.gguf', sizeBytes: 1, state: 'usable', reason: null, architecture: 'llama', parameterCount: null, quantization: 'F32',
  trainedContext: 4096, tools: false, thinking: false, vision: false, mmproj: null, sha256: null, download: null,
};
const LOADED: LoadedModel = { file: 'plain.gguf', contextSize: 4096, requestedSize: 4096, memoryBytes: 1, unloadsAt: null, answering: false };

const button = (html: string, id: string) => new RegExp(`<button[^>]*data-testid="${id}"[^>]*>`).exec(html)?.[0] ?? '';

describe('Delete… on a built-in model', () => {
  it('waits, as Unload does and with its reason, while the file answers', () => {
    const html = renderToStaticMarkup(<LibraryItem entry={ENTRY} loaded={{ ...LOADED, answering: true }} />);
    const unload = button(html, 'library-unload');
    const del = button(html, 'library-delete');
    expect(del).toContain('disabled=""');
    expect(unload).toContain('disabled=""');
    const title = (b: string) => /title="([^"]*)"/.exec(b)?.[1];
    expect(title(del)).toBe('It is answering: stop that answer first.');
    expect(title(del)).toBe(title(unload));
  });

  it('is offered while the file is loaded and idle, or not loaded', () => {
    for (const loaded of [LOADED, undefined]) {
      const del = button(renderToStaticMarkup(<LibraryItem entry={ENTRY} loaded={loaded} />), 'library-delete');
      expect(del).not.toContain('disabled');
      expect(del).not.toContain('title=');
    }
  });
});
