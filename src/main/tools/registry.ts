import type { ToolSchema } from '../dialects/types';
import { currentDatetimeTool } from './current-datetime';
import { fetchUrlTool } from './fetch-url';
import { readDocumentTool } from './read-document';
import type { Tool } from './types';

/** The tools a step may offer, by name. Tests build one with their own tools; the app uses `builtinTools`. */
export class ToolRegistry {
  private readonly byName = new Map<string, Tool>();

  constructor(tools: readonly Tool[]) {
    for (const t of tools) this.byName.set(t.schema.name, t);
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  schemas(): ToolSchema[] {
    return [...this.byName.values()].map((t) => t.schema);
  }
}

export function builtinTools(): ToolRegistry {
  return new ToolRegistry([readDocumentTool, fetchUrlTool, currentDatetimeTool]);
}
