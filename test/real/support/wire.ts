/**
 * A plain reading of llama-server's OpenAI stream, for tests that check what the server itself sends (not what
 * Firebrand makes of it): content, reasoning, tool calls and finish reasons, accumulated.
 */
import { builtinTools } from '../../../src/main/tools/registry';

export interface WireSummary {
  status: number;
  content: string;
  reasoning: string;
  calls: { name: string; arguments: string }[];
  finish: string[];
  raw: string;
}

/** The app's own tools as llama-server is offered them. */
export function appTools(): unknown[] {
  return builtinTools()
    .schemas()
    .map((s) => ({ type: 'function', function: s }));
}

export async function chatStream(url: string, body: Record<string, unknown>): Promise<WireSummary> {
  const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stream: true, ...body }) });
  const raw = await res.text();
  const out: WireSummary = { status: res.status, content: '', reasoning: '', calls: [], finish: [], raw };
  for (const line of raw.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const event = JSON.parse(line.slice(6)) as { choices?: { delta?: Delta; finish_reason?: string | null }[] };
    for (const choice of event.choices ?? []) {
      const d = choice.delta ?? {};
      out.content += d.content ?? '';
      out.reasoning += d.reasoning_content ?? '';
      for (const tc of d.tool_calls ?? []) {
        const call = (out.calls[tc.index] ??= { name: '', arguments: '' });
        call.name += tc.function?.name ?? '';
        call.arguments += tc.function?.arguments ?? '';
      }
      if (choice.finish_reason) out.finish.push(choice.finish_reason);
    }
  }
  return out;
}

interface Delta {
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: { index: number; function?: { name?: string; arguments?: string } }[];
}
