/**
 * Models → Load on a built-in model showed nothing while the engine loaded it (seconds to minutes on a CPU), in this
 * tab or another, and a second click asked again. While main's status says the model loads, Load says so and
 * cannot be clicked.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LibraryItem } from '../../src/renderer/components/library/LibraryItem';
import type { LibraryEntry } from '../../src/shared/library';

const ENTRY: LibraryEntry = {
  file: 'plain.gguf', path: '/m/plain.gguf', sizeBytes: 1, state: 'usable', reason: null, architecture: 'llama', parameterCount: null, quantization: 'F32',
  trainedContext: 4096, tools: false, thinking: false, vision: false, mmproj: null, sha256: null, download: null,
};

const loadButton = (html: string) => /<button[^>]*data-testid="library-load"[^>]*>([^<]*)<\/button>/.exec(html);

describe('the Load button of a built-in model', () => {
  it('says it loads, and cannot be clicked again, while main says the engine loads it', () => {
    const busy = loadButton(renderToStaticMarkup(<LibraryItem entry={ENTRY} loaded={undefined} loading />));
    expect(busy?.[1]).toBe('Loading…');
    expect(busy?.[0]).toContain('disabled=""');
    expect(busy?.[0]).toContain('data-state="loading"');
    const idle = loadButton(renderToStaticMarkup(<LibraryItem entry={ENTRY} loaded={undefined} />));
    expect(idle?.[1]).toBe('Load');
    expect(idle?.[0]).not.toContain('disabled');
  });
});
