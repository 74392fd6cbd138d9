/**
 * What a llama-server says about itself: `/health` (503 "Loading model" while it loads), `/props` (the fixed
 * n_ctx, chat template, modalities), `/v1/models` (the model and its trained context) and `/slots`. Shapes
 * from real captures in ../shared/conformance/llama-server/.
 */
import type { LlamaServerInfo } from '../../shared/models';
import { callServer, serverError } from './ollama-http';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

export function parseHealth(status: number, json: unknown): Pick<LlamaServerInfo, 'health' | 'healthMessage'> {
  if (status === 200) return { health: 'ok', healthMessage: null };
  const said = serverError(json);
  if (status === 503) return { health: 'loading', healthMessage: said ?? 'Loading model' };
  return { health: 'error', healthMessage: said ?? `The server answered ${status}.` };
}

export function parseProps(json: unknown): Pick<LlamaServerInfo, 'nCtx' | 'chatTemplate' | 'modalities' | 'model'> {
  const props = isObj(json) ? json : {};
  const settings = isObj(props.default_generation_settings) ? props.default_generation_settings : {};
  const modalities = isObj(props.modalities) ? props.modalities : {};
  return {
    nCtx: num(settings.n_ctx),
    chatTemplate: str(props.chat_template),
    modalities: { vision: modalities.vision === true, audio: modalities.audio === true },
    model: str(props.model_alias) ?? str(props.model_path),
  };
}

export function parseV1Models(json: unknown): { model: string | null; nCtxTrain: number | null } {
  const data = isObj(json) && Array.isArray(json.data) ? (json.data as unknown[]) : [];
  const first = data.find(isObj);
  const meta = first && isObj(first.meta) ? first.meta : {};
  return { model: first ? str(first.id) : null, nCtxTrain: num(meta.n_ctx_train) };
}

export function parseSlots(json: unknown): LlamaServerInfo['slots'] {
  if (!Array.isArray(json)) return [];
  return json.filter(isObj).flatMap((s) => {
    const id = num(s.id);
    const nCtx = num(s.n_ctx);
    return id === null || nCtx === null ? [] : [{ id, nCtx, processing: s.is_processing === true }];
  });
}

/** Asks all four endpoints; while the model loads only /health answers, and that is reported as is. */
export async function llamaServerInfo(baseUrl: string): Promise<LlamaServerInfo> {
  const empty: LlamaServerInfo = { health: 'unreachable', healthMessage: null, model: null, nCtx: null, nCtxTrain: null, modalities: { vision: false, audio: false }, chatTemplate: null, slots: [] };
  let health;
  try {
    const h = await callServer(baseUrl, { method: 'GET', path: '/health', timeoutMs: 5_000 });
    health = parseHealth(h.status, h.json);
  } catch (err) {
    return { ...empty, healthMessage: err instanceof Error ? err.message : String(err) };
  }
  if (health.health !== 'ok') return { ...empty, ...health };
  const get = (path: string) => callServer(baseUrl, { method: 'GET', path, timeoutMs: 5_000 }).catch(() => null);
  const [props, models, slots] = await Promise.all([get('/props'), get('/v1/models'), get('/slots')]);
  const p = props?.status === 200 ? parseProps(props.json) : null;
  const m = models?.status === 200 ? parseV1Models(models.json) : { model: null, nCtxTrain: null };
  return {
    ...empty,
    ...health,
    ...(p ?? {}),
    model: p?.model ?? m.model,
    nCtxTrain: m.nCtxTrain,
    slots: slots?.status === 200 ? parseSlots(slots.json) : [],
  };
}
