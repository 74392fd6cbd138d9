import type { ToolSchema } from '../dialects/types';
import { currentDatetimeTool } from './current-datetime';
import { fetchUrlTool } from './fetch-url';
import { readDocumentTool } from './read-document';
import type { Tool } from './types';

/**
 * A source of tools beside the built-in ones (the MCP servers, src/main/mcp): asked afresh each time, so a tool
 * switched off is gone from the next request. `taken` are the names already offered (the built-in tools), for its
 * collision rule.
 */
export interface ToolProvider {
  tools(taken: readonly string[]): readonly Tool[];
  /** Makes the tool list known before a request is assembled (starts servers whose tools were never listed). */
  prepare?(signal: AbortSignal): Promise<void>;
}

/**
 * The one registry of tools a step may offer, by name (DESIGN.md §9): built-in tools and those of the providers.
 * Tests build one with their own tools; the app uses `builtinTools` plus the MCP servers.
 */
export class ToolRegistry {
  private readonly builtins = new Map<string, Tool>();

  constructor(
    tools: readonly Tool[],
    private readonly providers: readonly ToolProvider[] = [],
  ) {
    for (const t of tools) this.builtins.set(t.schema.name, t);
  }

  /** No tools at all: what a conversation that turned tools off is offered. */
  static none(): ToolRegistry {
    return new ToolRegistry([]);
  }

  get(name: string): Tool | undefined {
    return this.builtins.get(name) ?? this.provided().find((t) => t.schema.name === name);
  }

  schemas(): ToolSchema[] {
    return [...this.builtins.values(), ...this.provided()].map((t) => t.schema);
  }

  /** Called before each step is assembled; a failure of one provider leaves its tools out, nothing more. */
  async prepare(signal: AbortSignal): Promise<void> {
    await Promise.all(this.providers.map((p) => p.prepare?.(signal).catch(() => undefined)));
  }

  private provided(): Tool[] {
    const taken = [...this.builtins.keys()];
    return this.providers.flatMap((p) => p.tools(taken));
  }
}

export function builtinTools(): ToolRegistry {
  return new ToolRegistry(builtinToolList());
}

export function builtinToolList(): Tool[] {
  return [readDocumentTool, fetchUrlTool, currentDatetimeTool];
}
