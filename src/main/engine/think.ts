import type { ThinkMode } from '../../shared/connections';
import type { JsonObject } from '../../shared/json';
import type { ConnectionKind } from '../../shared/connections';
import type { ModelCapabilities } from './types';

/** Anthropic thinking budgets per level; `on` leaves the dialect's default (half of max_tokens). */
export const ANTHROPIC_BUDGETS = { low: 2048, medium: 8192, high: 24_576 } as const;

export interface ThinkPlan {
  /** The boolean EncodeInput takes; undefined leaves the server's default. */
  think?: boolean;
  /** Extra sampling params (Anthropic `thinking_budget`). */
  params?: Record<string, number>;
  /** Applied to the encoded body: what a boolean cannot say (levels, llama-server's reasoning format). */
  patch?: (body: JsonObject) => void;
}

/**
 * Think mode -> what each dialect wants (issue 5). Offered only where the model can think: a model the server
 * says cannot think gets nothing (a `think` field would be an error on Ollama). Unknown capability: as asked.
 */
export function planThink(mode: ThinkMode | undefined, kind: ConnectionKind, caps: ModelCapabilities): ThinkPlan {
  if (mode === undefined || caps.thinking === false) return {};
  if (mode === 'off') {
    // Anthropic thinks only when asked: "off" is simply not asking.
    return kind === 'anthropic' ? {} : { think: false };
  }
  const level = mode === 'on' ? undefined : mode;
  switch (kind) {
    case 'ollama':
      // gpt-oss takes "low" | "medium" | "high" in `think`; others take a boolean.
      return level ? { think: true, patch: (b) => void (b['think'] = level) } : { think: true };
    case 'llama-server':
      // `deepseek` makes the server split reasoning into `reasoning_content` instead of leaving tags inline.
      return {
        think: true,
        patch: (b) => {
          b['reasoning_format'] = 'deepseek';
          if (level) b['chat_template_kwargs'] = { ...asObject(b['chat_template_kwargs']), reasoning_effort: level };
        },
      };
    case 'builtin':
      // The GGUF's template takes `enable_thinking` (and a level as `reasoning_effort`), as llama-server passes them.
      return level
        ? { think: true, patch: (b) => void (b['chat_template_kwargs'] = { ...asObject(b['chat_template_kwargs']), reasoning_effort: level }) }
        : { think: true };
    case 'openai-compatible':
      return level ? { think: true, patch: (b) => void (b['reasoning_effort'] = level) } : { think: true };
    case 'anthropic':
      return level ? { think: true, params: { thinking_budget: ANTHROPIC_BUDGETS[level] } } : { think: true };
  }
}

/** The legacy boolean of `chat:send` as a mode. */
export function thinkModeOf(think: boolean | ThinkMode | undefined): ThinkMode | undefined {
  if (think === undefined) return undefined;
  if (typeof think === 'boolean') return think ? 'on' : 'off';
  return think;
}

/**
 * True when a rendered prompt ends inside an open `<think>` block (templates that pre-fill it). Only a pre-fill the
 * splitter knows how to close counts: think-open starts the splitter inside `<think>`, which only `</think>`
 * closes, so a prompt ending in `<reasoning>` is not think-open (it would swallow the whole answer, issue 16).
 */
export function endsInsideThink(rendered: string): boolean {
  const open = rendered.lastIndexOf('<think>');
  return open >= 0 && open > rendered.lastIndexOf('</think>');
}

/**
 * A known template flag, no request needed: an Ollama Go template or a Jinja template whose generation prompt
 * ends by writing `<think>` (after the last assistant marker) opens the block for the model.
 */
export function templateOpensThink(template: string | undefined, thinking: boolean): boolean {
  if (!template || !thinking) return false;
  const tail = template.trimEnd().slice(-400);
  return /<think>(\\n|\n)?['"]?\s*(\}\}|%\}|\{\{-?\s*end\s*-?\}\})?\s*$/.test(tail) || /add_generation_prompt[\s\S]*['"]<think>(\\n)?['"][\s\S]*endif/.test(tail);
}

function asObject(v: unknown): JsonObject {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : {};
}
