/**
 * An MCP `CallToolResult` as a Firebrand tool outcome (issue 19): text parts as text; images stored in the blob
 * store and carried by reference, like attachments (DESIGN.md §5), with a marker in the text where each was;
 * resources as their text, or by reference when they are images, or named when they are other bytes; a result
 * with only structured content as its JSON. Everything here is the server's output: it goes to the model and the
 * card as text, never as HTML.
 */
import type { AttachmentBlock } from '../../shared/turn';
import type { ToolOutcome } from '../tools/types';
import { withoutMcpPrefix } from './mcp-errors';
import type { CallToolResult } from './mcp-session';

/** Stores an image the tool returned; throws (with a message for the user) when the bytes are refused. */
export type ImageStore = (bytes: Uint8Array, mime: string, name: string) => Promise<AttachmentBlock>;

type Part = CallToolResult['content'][number];

export async function toolOutcome(result: CallToolResult, tool: string, storeImage: ImageStore | undefined): Promise<ToolOutcome> {
  const texts: string[] = [];
  const images: AttachmentBlock[] = [];
  const keepImage = async (base64: string, mime: string, label: string) => {
    const bytes = Buffer.from(base64, 'base64');
    if (!storeImage) return texts.push(`[${label} (${mime}, ${bytes.byteLength} bytes) was left out: images are not kept here]`);
    try {
      const block = await storeImage(bytes, mime, `${tool}-${images.length + 1}.${extension(mime)}`);
      images.push(block);
      texts.push(`[${label} ${images.length}: ${block.name}, attached below]`);
    } catch (err) {
      texts.push(`[${label} (${mime}) was left out: ${err instanceof Error ? err.message : String(err)}]`);
    }
  };
  for (const part of result.content ?? []) await add(part, texts, keepImage);
  // A server built on the SDK's McpServer answers an McpError it threw as an error result whose text starts
  // "MCP error -32602: " (a tool not found, its output not matching its schema): the server's words, once.
  if (result.isError && texts[0] !== undefined) texts[0] = withoutMcpPrefix(texts[0]);
  if (texts.length === 0 && result.structuredContent !== undefined) texts.push(JSON.stringify(result.structuredContent, null, 2));
  const content = texts.join('\n') || (result.isError ? `${tool} failed and said nothing more.` : `${tool} returned nothing.`);
  return { content, isError: result.isError === true, ...(images.length > 0 ? { images } : {}) };
}

async function add(part: Part, texts: string[], keepImage: (base64: string, mime: string, label: string) => Promise<unknown>): Promise<void> {
  switch (part.type) {
    case 'text':
      texts.push(part.text);
      return;
    case 'image':
      await keepImage(part.data, part.mimeType, 'image');
      return;
    case 'audio':
      texts.push(`[audio (${part.mimeType}, ${Math.floor((part.data.length * 3) / 4)} bytes) was left out: Firebrand does not send audio to models]`);
      return;
    case 'resource_link':
      texts.push(`[resource link: ${part.name} ${part.uri}${part.description ? ` (${part.description})` : ''}]`);
      return;
    case 'resource': {
      const r = part.resource;
      if ('text' in r && typeof r.text === 'string') texts.push(`[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}]\n${r.text}`);
      else if ('blob' in r && typeof r.blob === 'string') {
        const mime = r.mimeType ?? 'application/octet-stream';
        if (mime.startsWith('image/')) await keepImage(r.blob, mime, `resource ${r.uri}: image`);
        else texts.push(`[resource ${r.uri} (${mime}, ${Math.floor((r.blob.length * 3) / 4)} bytes) was left out: binary data]`);
      }
      return;
    }
    default:
      texts.push('[a part of a kind Firebrand does not know was left out]');
  }
}

function extension(mime: string): string {
  const sub = mime.split('/')[1]?.split(/[;+]/)[0] ?? 'bin';
  return sub === 'jpeg' ? 'jpg' : /^[a-z0-9]{1,10}$/.test(sub) ? sub : 'bin';
}
