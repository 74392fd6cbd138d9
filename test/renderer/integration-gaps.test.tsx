/** The renderer's side of the integration gaps: what the meter, the picker and a PDF chip tell the user. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ContextMeter } from '../../src/renderer/components/composer/ContextMeter';
import { ModelPicker } from '../../src/renderer/components/composer/ModelPicker';
import { FileChip } from '../../src/renderer/components/turn/Attachments';
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

  it('the picker lists aliases with their model beside the models, and shows an alias its model’s capabilities', () => {
    const html = renderToStaticMarkup(<ModelPicker models={[qwen]} aliases={[alias]} selected="coder" />);
    expect(html).toContain('<optgroup label="Aliases"><option value="coder" data-alias="coder" data-model="qwen3:8b" selected="">coder → qwen3:8b</option></optgroup>');
    expect(html).toContain('<optgroup label="Models"><option value="qwen3:8b">');
    expect(html).toMatch(/data-testid="model-capabilities".*thinking/);
  });

  it('a PDF chip says the model gets only a note, in the same words the wire uses', () => {
    const html = renderToStaticMarkup(<FileChip block={{ type: 'attachment', id: 'a'.repeat(64), kind: 'document', name: 'report.pdf', mime: 'application/pdf', size: 10 }} />);
    expect(html).toContain('text not extracted: the model gets only a note');
    expect(html).toContain('The model gets only: [PDF &quot;report.pdf&quot; attached — its text could not be extracted]');
  });
});
