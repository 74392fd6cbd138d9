import Ajv, { type ValidateFunction } from 'ajv';
import type { JsonValue } from '../../../shared/json';
import type { ToolSchema } from '../types';
import { describeSchemaError } from './tool-arg-words';

export type ToolArgsResult = { ok: true; value: JsonValue } | { ok: false; error: string };

// One validator per schema object: compiling is the expensive part and the same tool list is reused per step.
// The instance is made with the first tool call, not when the app starts (it cost ~20 ms of every start).
let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction | Error>();

function validatorFor(tool: ToolSchema): ValidateFunction | Error {
  let v = compiled.get(tool.parameters);
  if (!v) {
    try {
      ajv ??= new Ajv({ allErrors: true, strict: false });
      v = ajv.compile(tool.parameters);
    } catch (e) {
      v = e instanceof Error ? e : new Error(String(e));
    }
    compiled.set(tool.parameters, v);
  }
  return v;
}

/**
 * Parses a tool call's raw arguments and checks them against the tool's schema. Errors are written for the
 * model (they go back as an error tool result), so they name the tool and what to fix.
 * `tool` undefined with `known` given means the model called a tool that does not exist.
 */
export function validateToolArguments(raw: string, tool: ToolSchema | undefined, name = tool?.name ?? 'the tool'): ToolArgsResult {
  let value: JsonValue;
  // Some servers send no fragments at all for a call without arguments: treat empty as `{}`.
  const text = raw.trim() === '' ? '{}' : raw;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, error: `Arguments for ${name} are not valid JSON: ${why}. Send one JSON object.` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: `Arguments for ${name} must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'null' : typeof value}.` };
  }
  if (!tool) return { ok: true, value };
  const validate = validatorFor(tool);
  if (validate instanceof Error) return { ok: true, value }; // a broken schema is ours, not the model's fault
  if (validate(value)) return { ok: true, value };
  const problems = (validate.errors ?? []).map(describeSchemaError);
  return { ok: false, error: `Arguments for ${tool.name} are invalid: ${problems.join('; ')}.` };
}

/**
 * Validates a call by tool name against the tools offered. With no tools offered, any name is accepted and
 * only JSON is checked (replaying a capture without its tool list must not invent errors).
 */
export function validateToolCall(name: string, raw: string, tools: readonly ToolSchema[] | undefined): ToolArgsResult {
  if (!tools || tools.length === 0) return validateToolArguments(raw, undefined, name);
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    const known = tools.map((t) => t.name).join(', ');
    return { ok: false, error: `There is no tool named ${name}. Available tools: ${known}.` };
  }
  return validateToolArguments(raw, tool);
}
