/**
 * Ollama's management endpoints (docs/api.md): show, delete, running models, unload, version, create. `name`: the
 * saved connection's, which failures say (./ollama-http.ts callServer); absent, the address alone.
 */
import type { ModelDetails, RunningModel } from '../../shared/models';
import { UserFacingError } from '../errors';
import { callOk } from './ollama-http';
import { parseShow } from './ollama-show';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

export async function showModel(baseUrl: string, model: string, name?: string): Promise<ModelDetails> {
  const json = await callOk(baseUrl, { method: 'POST', path: '/api/show', body: { model } }, `Details of ${model}`, name);
  return parseShow(model, json, (await tagDigests(baseUrl, name).catch(() => new Map<string, string>())).get(model) ?? null);
}

export async function deleteModel(baseUrl: string, model: string, name?: string): Promise<void> {
  await callOk(baseUrl, { method: 'DELETE', path: '/api/delete', body: { model } }, `Deleting ${model}`, name);
}

/** `/api/ps`: loaded models; a model whose size_vram is below its size runs partly on the CPU. */
export function parseRunning(json: unknown): RunningModel[] {
  const models = (json as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return [];
  return models.flatMap((m: Record<string, unknown>) => {
    const name = str(m.name) ?? str(m.model);
    const size = num(m.size);
    if (!name || size === null) return [];
    const vram = num(m.size_vram) ?? 0;
    return [{ name, sizeBytes: size, sizeVramBytes: vram, contextLength: num(m.context_length), expiresAt: str(m.expires_at), spilledToCpu: vram < size }];
  });
}

export async function runningModels(baseUrl: string, name?: string): Promise<RunningModel[]> {
  return parseRunning(await callOk(baseUrl, { method: 'GET', path: '/api/ps', timeoutMs: 5_000 }, 'Listing running models', name));
}

/** A generate request with no prompt and keep_alive 0 makes Ollama unload the model at once. */
export async function unloadModel(baseUrl: string, model: string, name?: string): Promise<void> {
  await callOk(baseUrl, { method: 'POST', path: '/api/generate', body: { model, keep_alive: 0 } }, `Unloading ${model}`, name);
}

export async function serverVersion(baseUrl: string, name?: string): Promise<string> {
  const json = await callOk(baseUrl, { method: 'GET', path: '/api/version', timeoutMs: 5_000 }, 'Asking for the version', name);
  const version = str((json as { version?: unknown } | null)?.version);
  if (!version) throw new UserFacingError('server-error', `${name !== undefined ? `${name} at ${baseUrl}` : `The server at ${baseUrl}`} did not say its version as Ollama does: is it Ollama?`);
  return version;
}

/** name → digest from `/api/tags`: how the app notices a materialized alias changed or disappeared. */
export async function tagDigests(baseUrl: string, name?: string): Promise<Map<string, string>> {
  return digestsOf(await ollamaTags(baseUrl, name));
}

/** One model of `/api/tags`, named as the model list names it (ollama-models.ts); its digest where it has one. */
export interface OllamaTag {
  name: string;
  digest: string | null;
}

export async function ollamaTags(baseUrl: string, name?: string): Promise<OllamaTag[]> {
  const json = await callOk(baseUrl, { method: 'GET', path: '/api/tags', timeoutMs: 10_000 }, 'Listing models', name);
  const models = (json as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return [];
  return (models as Record<string, unknown>[]).flatMap((m) => {
    const tag = str(m.name) ?? str(m.model);
    return tag ? [{ name: tag, digest: str(m.digest) }] : [];
  });
}

export function digestsOf(tags: readonly OllamaTag[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { name, digest } of tags) {
    if (digest === null) continue;
    out.set(name, digest);
    // `ollama create foo` registers `foo:latest`; let either spelling find it.
    if (name.endsWith(':latest')) out.set(name.slice(0, -':latest'.length), digest);
  }
  return out;
}

export interface CreateBody {
  model: string;
  from: string;
  system?: string;
  parameters?: Record<string, number | string | string[]>;
  stream: false;
}

export async function createModel(baseUrl: string, body: CreateBody, name?: string): Promise<void> {
  const json = await callOk(baseUrl, { method: 'POST', path: '/api/create', body, timeoutMs: 120_000 }, `Creating ${body.model}`, name);
  const status = str((json as { status?: unknown } | null)?.status);
  if (status !== null && status !== 'success') throw new UserFacingError('server-error', `Creating ${body.model} ended with: ${status}`);
}
