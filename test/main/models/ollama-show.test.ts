import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseParameters, parseShow } from '../../../src/main/models/ollama-show';

const show = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/ollama-models/${name}.json`, import.meta.url), 'utf8'));

describe('/api/show parsing', () => {
  it('llama3.1:8b: no key/value lengths, so the head size is embedding / heads', () => {
    const d = parseShow('llama3.1:8b', show('show-llama3.1-8b'));
    expect(d.capabilities).toEqual(['completion', 'tools']);
    expect(d).toMatchObject({ family: 'llama', parameterSize: '8.0B', quantization: 'Q4_K_M', system: '' });
    expect(d.parameters).toEqual({ stop: ['<|start_header_id|>', '<|end_header_id|>', '<|eot_id|>'] });
    expect(d.template).toContain('<|start_header_id|>assistant');
    expect(d.license).toContain('LLAMA 3.1 COMMUNITY LICENSE');
    expect(d.architecture).toMatchObject({ arch: 'llama', blockCount: 32, headCount: 32, keyLength: 128, valueLength: 128, headDimDerived: true, embeddingLength: 4096, contextLength: 131072, vocabSize: 128256, slidingWindow: null });
    expect(d.architecture?.kvHeadsPerLayer).toEqual(new Array(32).fill(8));
  });

  it('qwen3:14b: explicit key/value lengths, thinking capability, sampling parameters as numbers', () => {
    const d = parseShow('qwen3:14b', show('show-qwen3-14b'));
    expect(d.capabilities).toEqual(['completion', 'tools', 'thinking']);
    expect(d.parameters).toEqual({ repeat_penalty: [1], stop: ['<|im_start|>', '<|im_end|>'], temperature: [0.6], top_k: [20], top_p: [0.95] });
    expect(d.architecture).toMatchObject({ arch: 'qwen3', blockCount: 40, keyLength: 128, valueLength: 128, headDimDerived: false, contextLength: 40960, vocabSize: null });
  });

  it('gemma3:12b: sliding window of 1024 on five layers in six', () => {
    const d = parseShow('gemma3:12b', show('show-gemma3-12b'));
    expect(d.capabilities).toContain('vision');
    const a = d.architecture;
    expect(a).toMatchObject({ arch: 'gemma3', blockCount: 48, keyLength: 256, valueLength: 256, slidingWindow: 1024 });
    expect(a?.slidingLayers.filter((s) => !s).length).toBe(8);
    expect(a?.slidingLayers.slice(0, 6)).toEqual([true, true, true, true, true, false]);
  });

  it('granite4 hybrid: KV heads per layer as an array (0 for recurrent layers), no key/value lengths', () => {
    const d = parseShow('granite4:tiny-h', show('show-granite4-tiny-h'));
    const a = d.architecture;
    expect(a?.kvHeadsPerLayer.length).toBe(40);
    expect(a?.kvHeadsPerLayer.reduce((s, n) => s + n, 0)).toBe(16);
    expect(a).toMatchObject({ headCount: 12, keyLength: 128, valueLength: 128, headDimDerived: true, vocabSize: 100352 });
    expect(d.system).toContain('helpful assistant');
  });

  it('tolerates a body with no model_info and odd parameter lines', () => {
    expect(parseShow('x', {}).architecture).toBeNull();
    expect(parseShow('x', null).capabilities).toEqual([]);
    expect(parseParameters('stop "a \\"quoted\\" stop"\nnum_ctx 8192\n\n')).toEqual({ stop: ['a "quoted" stop'], num_ctx: [8192] });
  });
});
