import type { ThinkMode } from './models';

/**
 * One identity layer of a request (app default, alias, conversation; DESIGN.md §2): later layers win field by
 * field, system prompts are joined in order. Shared because storage (conversation settings) and aliases produce
 * layers the engine consumes, and storage sits below the engine.
 */
export interface IdentityLayer {
  systemPrompt?: string;
  params?: Record<string, number | string | boolean>;
  think?: ThinkMode;
  contextWindow?: number;
}
