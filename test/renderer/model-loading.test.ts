import { describe, expect, it } from 'vitest';
import type { Turn } from '../../src/shared/turn';
import { loadingModelOf, loadOf } from '../../src/renderer/store/builtin-loading';

const waiting: Turn = { id: 'a1', conversationId: 'c1', parentId: 'u1', role: 'assistant', blocks: [], meta: {}, status: 'streaming', model: 'scripted/thinker.gguf', createdAt: 1 };

describe('an answer waiting on a built-in model that is being loaded (first-hour audit F5)', () => {
  it('names the model while main says it loads and nothing has streamed; not once loaded, nor with text, nor for another model', () => {
    expect(loadingModelOf(waiting, ['scripted/thinker.gguf'])).toBe('scripted/thinker.gguf');
    expect(loadingModelOf(waiting, [])).toBeNull();
    expect(loadingModelOf({ ...waiting, blocks: [{ type: 'text', text: 'Hi' }] }, ['scripted/thinker.gguf'])).toBeNull();
    expect(loadingModelOf({ ...waiting, model: 'weather.gguf' }, ['scripted/thinker.gguf'])).toBeNull();
    expect(loadingModelOf({ ...waiting, status: 'error' }, ['scripted/thinker.gguf'])).toBeNull();
  });

  it('reads main\'s library:changed reasons', () => {
    expect(loadOf('loading:scripted/thinker.gguf')).toEqual({ file: 'scripted/thinker.gguf', loading: true });
    expect(loadOf('loaded:scripted/thinker.gguf')).toEqual({ file: 'scripted/thinker.gguf', loading: false });
    expect(loadOf('download-done')).toBeNull();
  });
});
