/**
 * Round 9 left: an alias's context window could be saved below what the open chat through it already held, and the
 * Models screen said nothing (only the composer behind it refused the next message). The editor now says so.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { useRoom } from '../../src/renderer/store/context-room';
import { useStore } from '../../src/renderer/store/index';
import { aliasWindowBelowChat } from '../../src/renderer/store/open-chat-size';
import { aliasWindowAboveTrained } from '../../src/renderer/components/models/alias-window-notes';

beforeEach(() => {
  useStore.setState({ activeId: 'c1', selectedModel: 'alias:a1' });
  useRoom.setState({ measure: { key: 'k', value: { tokens: 1900, counted: 'estimate', window: 4096 }, base: { conversationId: 'c1', tipId: 't2', scope: 'alias:a1|ollama|0||tools:' } } });
});

describe("an alias's window saved below what the open chat through it holds", () => {
  it('is said, with how to go on', () => {
    expect(aliasWindowBelowChat('a1', 'Helper', 1024)).toBe(
      'The open chat already holds about 1.9K tokens through Helper, more than its 1K-token window: nothing in it is lost, but its next message cannot be sent until you make room there (Make room… under the message box) or give Helper a larger window.',
    );
  });

  it('is not said where the chat still fits, has no window of the alias, or is through something else', () => {
    expect(aliasWindowBelowChat('a1', 'Helper', 4096)).toBeNull();
    expect(aliasWindowBelowChat('a1', 'Helper', null)).toBeNull();
    expect(aliasWindowBelowChat('a2', 'Other', 1024)).toBeNull();
    useStore.setState({ activeId: null });
    expect(aliasWindowBelowChat('a1', 'Helper', 1024)).toBeNull();
  });
});

// Round 10: an alias on plain.gguf (trained for 4,096 tokens) saved with 200,000 loaded a 200,000-token context.
describe("an alias's window beyond what its model was trained for", () => {
  it('is said after the save', () => {
    expect(aliasWindowAboveTrained('plain.gguf', 200_000, 4096)).toBe(
      "plain.gguf was trained for 4,096 tokens: the alias asks for 200,000, which the engine holds memory for, but past 4,096 the model's answers are likely to fall apart.",
    );
  });

  it('is not said within the trained context, without a window, or where the trained context is not known', () => {
    expect(aliasWindowAboveTrained('plain.gguf', 4096, 4096)).toBeNull();
    expect(aliasWindowAboveTrained('plain.gguf', null, 4096)).toBeNull();
    expect(aliasWindowAboveTrained('llama3.2:3b', 200_000, undefined)).toBeNull();
  });
});
