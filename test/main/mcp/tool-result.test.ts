/**
 * Issue 19: what an MCP tool's result becomes for the model and the card: text as text, images by reference (a
 * marker where each was), resources as their text or named, structured content as JSON. Shapes from the MCP
 * schema (CallToolResult, 2025-06-18), as server-everything sends them.
 */
import { describe, expect, it } from 'vitest';
import type { AttachmentBlock } from '../../../src/shared/turn';
import { toolOutcome, type ImageStore } from '../../../src/main/mcp/tool-result';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const stored: { bytes: number; mime: string; name: string }[] = [];
const store: ImageStore = (bytes, mime, name) => {
  stored.push({ bytes: bytes.byteLength, mime, name });
  return Promise.resolve<AttachmentBlock>({ type: 'attachment', id: 'f'.repeat(64), kind: 'image', name, mime, size: bytes.byteLength });
};

describe('an MCP tool result', () => {
  it('keeps text, stores an image by reference and marks where it was', async () => {
    stored.length = 0;
    const out = await toolOutcome({ content: [{ type: 'text', text: 'Here it is:' }, { type: 'image', data: PNG, mimeType: 'image/png' }, { type: 'text', text: 'The end.' }] }, 'logo', store);
    expect(out.content).toBe('Here it is:\n[image 1: logo-1.png, attached below]\nThe end.');
    expect(out.isError).toBe(false);
    expect(out.images).toHaveLength(1);
    expect(stored).toEqual([{ bytes: Buffer.from(PNG, 'base64').byteLength, mime: 'image/png', name: 'logo-1.png' }]);
  });

  it('says why an image the store refused was left out', async () => {
    const refusing: ImageStore = () => Promise.reject(new Error('“x.svg” cannot be attached: SVG images are not accepted'));
    const out = await toolOutcome({ content: [{ type: 'image', data: 'PHN2Zz4=', mimeType: 'image/svg+xml' }] }, 'draw', refusing);
    expect(out.content).toBe('[image (image/svg+xml) was left out: “x.svg” cannot be attached: SVG images are not accepted]');
    expect(out.images).toBeUndefined();
  });

  it('names what it cannot send: audio, binary resources; links and text resources as text', async () => {
    const out = await toolOutcome(
      {
        content: [
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///notes/a.md', name: 'a.md', description: 'A note' },
          { type: 'resource', resource: { uri: 'demo://text/1', mimeType: 'text/plain', text: 'Resource one.' } },
          { type: 'resource', resource: { uri: 'demo://blob/2', mimeType: 'application/gzip', blob: 'H4sIAAAA' } },
        ],
      },
      'mixed',
      store,
    );
    expect(out.content.split('\n')).toEqual([
      '[audio (audio/wav, 3 bytes) was left out: Firebrand does not send audio to models]',
      '[resource link: a.md file:///notes/a.md (A note)]',
      '[resource demo://text/1 (text/plain)]',
      'Resource one.',
      '[resource demo://blob/2 (application/gzip, 6 bytes) was left out: binary data]',
    ]);
  });

  it('uses structured content when there is no other, and says so when an error says nothing', async () => {
    expect((await toolOutcome({ content: [], structuredContent: { temperature: 18 } }, 'weather', store)).content).toBe('{\n  "temperature": 18\n}');
    expect(await toolOutcome({ content: [], isError: true }, 'weather', store)).toEqual({ content: 'weather failed and said nothing more.', isError: true });
  });
});
