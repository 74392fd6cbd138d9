import { useState, type KeyboardEvent } from 'react';
import { selectModel, sendMessage, useStore } from '../store';

export function Composer() {
  const [draft, setDraft] = useState('');
  const models = useStore((s) => s.models);
  const selected = useStore((s) => s.selectedModel);
  const sending = useStore((s) => s.sending);
  const streaming = useStore((s) => s.turns.some((t) => t.status === 'streaming'));

  const blockedBy = !selected ? 'Choose a model first.' : streaming ? 'Wait for the answer, or stop it.' : draft.trim() === '' ? 'Type a message.' : null;

  const send = async () => {
    if (blockedBy || sending) return;
    if (await sendMessage(draft)) setDraft('');
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <form className="composer" onSubmit={(e) => { e.preventDefault(); void send(); }}>
      <select
        className="model-picker"
        data-testid="model-picker"
        aria-label="Model"
        value={selected ?? ''}
        onChange={(e) => selectModel(e.target.value)}
      >
        {models.length === 0 && <option value="">No models</option>}
        {models.map((m) => (
          <option key={m.name} value={m.name}>
            {m.name}
            {m.parameterSize ? ` · ${m.parameterSize}` : ''}
          </option>
        ))}
      </select>
      <textarea
        data-testid="composer-input"
        aria-label="Message"
        placeholder="Message (Enter sends, Shift+Enter adds a line)"
        value={draft}
        rows={3}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKey}
      />
      <button type="submit" data-testid="composer-send" disabled={blockedBy !== null || sending} title={blockedBy ?? 'Send'}>
        Send
      </button>
    </form>
  );
}
