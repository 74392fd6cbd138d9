/**
 * Keeps a materialized alias and its Ollama model in step: creates it, and notices (by the digest `/api/tags`
 * lists) when someone changed the model behind the app's back or deleted it.
 */
import type { Alias, AliasStatus } from '../../shared/models';
import { createModel, tagDigests } from '../models/ollama-admin';
import type { AliasStore } from './alias-store';
import { createBody } from './alias-create-body';

export function statusFor(alias: Alias, digests: Map<string, string>): AliasStatus {
  if (alias.materializedDigest === null) return 'not-materialized';
  const digest = digests.get(alias.name);
  if (digest === undefined) return 'missing';
  // An alias edited since it was materialized is already 'changed' until materialized again.
  if (alias.status === 'changed') return 'changed';
  return digest === alias.materializedDigest ? 'in-sync' : 'changed';
}

/** `name`: the connection's on `baseUrl`, which a failure says (shared connectionName). */
export async function materializeAlias(store: AliasStore, baseUrl: string, id: string, name?: string): Promise<Alias> {
  const alias = store.require(id);
  await createModel(baseUrl, createBody(alias), name);
  const digest = (await tagDigests(baseUrl, name)).get(alias.name) ?? null;
  return store.setMaterialized(id, digest, digest === null ? 'missing' : 'in-sync');
}

/** Re-checks every materialized alias against the server; returns the list with fresh statuses. */
export async function refreshAliasStatuses(store: AliasStore, baseUrl: string): Promise<Alias[]> {
  const aliases = store.list();
  if (!aliases.some((a) => a.materializedDigest !== null)) return aliases;
  let digests: Map<string, string>;
  try {
    digests = await tagDigests(baseUrl);
  } catch {
    return aliases; // server down: keep what we last knew rather than flag every alias as missing
  }
  return aliases.map((a) => {
    const status = statusFor(a, digests);
    if (status !== a.status) store.setStatus(a.id, status);
    return { ...a, status };
  });
}
