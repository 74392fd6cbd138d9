/** The renderer's side of the integration gaps: what the meter, the picker and a document chip tell the user. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ContextMeter } from '../../src/renderer/components/composer/ContextMeter';
import { ModelPicker } from '../../src/renderer/components/composer/ModelPicker';
import { FileChipView } from '../../src/renderer/components/turn/Attachments';
import type { AttachmentInspection } from '../../src/shared/ipc';
import type { Alias } from '../../src/shared/models';

const alias: Alias = {
  id: 'a1',
  name: 'coder',
  connectionId: 'ollama',
  model: 'qwen3:8b',
  systemPrompt: 'Code first.',
  parameters: {},
  thinkMode: 'low',
  contextWindow: null,
  materializedDigest: null,
  status: 'not-materialized',
  updatedAt: 1,
};
const qwen = { name: 'qwen3:8b', sizeBytes: 1, family: 'qwen3', parameterSize: '8.2B', quantization: 'Q4_K_M', capabilities: ['completion', 'thinking', 'tools'] };

describe('integration gaps in the UI', () => {
  it('the meter carries the window and its source, and says the reason in its title', () => {
    const html = renderToStaticMarkup(<ContextMeter estimate={100} window={43008} source="recommended" reason="43,008 tokens fit on the GPU." />);
    expect(html).toContain('data-window="43008"');
    expect(html).toContain('data-source="recommended"');
    expect(html).toContain('(recommended for your GPU): 43,008 tokens fit on the GPU.');
  });

  it('says system memory, not the GPU, when the window was worked out from system memory (the built-in engine on the CPU)', () => {
    const html = renderToStaticMarkup(<ContextMeter estimate={100} window={16384} source="recommended" memory="system" reason="16,384 tokens fit in system memory." />);
    expect(html).toContain('recommended for your system memory');
    expect(html).not.toContain('GPU');
  });

  // The meter gave only the total where a refusal card said what took the room: it now lists the same parts.
  it('says what makes up the estimate, part by part, as the refusal card does', () => {
    const parts = { tools: 1234, system: 56, message: 12, files: 300, earlier: 900 };
    const html = renderToStaticMarkup(<ContextMeter estimate={2502} window={8192} source="fallback" reason={null} parts={parts} />);
    expect(html).toContain(
      'title="About 2,502 of 8,192 tokens of the context window (default). Tool definitions — 1,234 tokens; System prompt — 56 tokens; Your message — 12 tokens; Its attached files — 300 tokens; Earlier turns — 900 tokens. The estimate is',
    );
    // No files, no files row; no parts (not measured yet), the total alone.
    expect(renderToStaticMarkup(<ContextMeter estimate={68} window={8192} source="fallback" reason={null} parts={{ message: 12, files: 0, earlier: 56 }} />)).toContain(
      '(default). Your message — 12 tokens; Earlier turns — 56 tokens. The estimate',
    );
    expect(renderToStaticMarkup(<ContextMeter estimate={68} window={8192} source="fallback" reason={null} />)).toContain('(default). The estimate');
  });

  // Chat audit #5: "…llama-server was started with n_ctx 8192.. The estimate is…".
  it('ends a reason that is a sentence with one period, not two', () => {
    const html = renderToStaticMarkup(<ContextMeter estimate={100} window={8192} source="server" reason="llama-server was started with n_ctx 8192." />);
    expect(html).toContain("(the server&#x27;s fixed window): llama-server was started with n_ctx 8192. The estimate is");
    expect(html).not.toContain('8192..');
  });

  it('the picker is a combobox listing aliases (with their model) beside the models, and shows an alias its model’s capabilities', () => {
    const connections = [{ id: 'ollama', kind: 'ollama' as const, label: 'Ollama', baseUrl: 'http://127.0.0.1:11434', hasApiKey: false, builtIn: true }];
    const html = renderToStaticMarkup(<ModelPicker models={[qwen]} aliases={[alias]} connections={connections} activeConnectionId="ollama" selected="alias:a1" />);
    // An alias is offered (and selected) as `alias:<id>`, shown by its name.
    expect(html).toMatch(/<input[^>]*data-testid="model-picker"[^>]*data-value="alias:a1"[^>]*data-name="coder"[^>]*role="combobox"[^>]*value="coder"/);
    expect(html).toMatch(/role="option"[^>]*data-value="alias:a1"[^>]*data-name="coder"[^>]*data-kind="alias"[^>]*aria-selected="true"/);
    expect(html).toContain('alias of qwen3:8b');
    expect(html).toMatch(/role="option"[^>]*data-value="qwen3:8b"[^>]*data-kind="model"/);
    expect(html).toMatch(/aria-hidden="true">Ollama<\/div>/);
    expect(html).toMatch(/data-testid="model-capabilities".*thinking/);
  });

  it('a document chip carries what it costs as sent (tokens, exact or estimated), or why it cannot be read', () => {
    const block = { type: 'attachment', id: 'a'.repeat(64), kind: 'document', name: 'report.pdf', mime: 'application/pdf', size: 2_000_000 } as const;
    const inspection: AttachmentInspection = { tokens: 1234, tokensSource: 'exact', pageCount: 3, pageChars: [1, 2, 3], textChars: null, pages: null, error: null, image: null };
    const html = renderToStaticMarkup(<FileChipView block={block} cost={{ status: 'done', inspection }} />);
    expect(html).toContain('data-tokens="1234"');
    expect(html).toContain('data-tokens-source="exact"');
    expect(html).toContain('1.2K tokens · 3 pages');
    const failed = renderToStaticMarkup(<FileChipView block={block} cost={{ status: 'done', inspection: { ...inspection, tokens: 0, error: '“report.pdf” is password-protected.' } }} />);
    expect(failed).toContain('data-testid="attachment-error">“report.pdf” is password-protected.</span>');
    expect(failed).not.toContain('data-tokens=');
    expect(renderToStaticMarkup(<FileChipView block={block} cost={{ status: 'reading' }} />)).toContain('reading…');
  });
});
