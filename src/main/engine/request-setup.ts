/**
 * What every request of one answer shares, worked out once: the identity layers, the model's capabilities, the
 * think plan, whether the template opens a think block, and the window Ollama or the built-in engine is told.
 * The step loop and the measure behind the meter and the out-of-room choices (src/main/context) use the same
 * setup, so the number the user is shown is the number the preflight refuses on (issue 21).
 */
import type { ThinkMode } from '../../shared/connections';
import type { Turn } from '../../shared/turn';
import type { ToolRegistry } from '../tools/registry';
import type { AssembleInput } from './assemble';
import type { Calibration } from './calibration';
import type { CapabilityCache } from './capabilities';
import { defaultWindow, type DefaultWindowDeps } from './default-window';
import { planThink } from './think';
import type { ThinkOpenCache } from './think-open';
import type { AttachmentPreparer, EngineConnection, IdentityLayer, ModelCapabilities } from './types';

export interface RequestSetupDeps extends DefaultWindowDeps {
  capabilities: CapabilityCache;
  thinkOpen: ThinkOpenCache;
  calibration: Calibration;
  tools: ToolRegistry;
  resolveAttachment?: (id: string) => Uint8Array | undefined;
  attachments?: AttachmentPreparer;
  /** The app's default identity layer (the first of the three). */
  appLayer?: IdentityLayer;
}

export interface RequestTarget {
  connection: EngineConnection;
  model: string;
  alias?: IdentityLayer;
  conversation?: IdentityLayer;
  think?: ThinkMode;
  /** false: the chat has tools off (its settings), so its requests offer none. Absent: the registry's tools. */
  tools?: boolean;
}

export interface RequestSetup {
  connection: EngineConnection;
  model: string;
  layers: (IdentityLayer | undefined)[];
  caps: ModelCapabilities;
  thinkMode: ThinkMode | undefined;
  thinkOpen: boolean | undefined;
  defaultWindow: number | undefined;
  /** Whether the requests offer the registry's tools (false: the chat has tools off). */
  offersTools: boolean;
}

export async function setupRequest(deps: RequestSetupDeps, target: RequestTarget): Promise<RequestSetup> {
  const { connection, model } = target;
  const layers = [deps.appLayer, target.alias, target.conversation];
  const caps = await deps.capabilities.get(connection, model);
  const thinkMode = [target.think, target.conversation?.think, target.alias?.think].find((m) => m !== undefined);
  const plan = planThink(thinkMode, connection.kind, caps);
  const thinkOpen = caps.thinking === true ? await deps.thinkOpen.get(connection, model, plan.think) : undefined;
  const window = await defaultWindow(deps, connection, model, layers);
  return { connection, model, layers, caps, thinkMode, thinkOpen, defaultWindow: window, offersTools: target.tools !== false };
}

/** Documents read and images scaled for the branch's attachments, before Assemble materializes them. */
export async function prepareAttachments(deps: Pick<RequestSetupDeps, 'attachments'>, branch: readonly Turn[]): Promise<void> {
  await deps.attachments?.prepare(branch.flatMap((t) => t.blocks.filter((b) => b.type === 'attachment')));
}

/** Assemble's input for `branch` under this setup. */
export function assembleInputFor(deps: RequestSetupDeps, setup: RequestSetup, branch: readonly Turn[]): AssembleInput {
  return {
    connection: setup.connection,
    model: setup.model,
    branch,
    layers: setup.layers,
    caps: setup.caps,
    calibration: deps.calibration,
    tools: setup.offersTools ? deps.tools.schemas() : [],
    ...(setup.thinkMode !== undefined ? { think: setup.thinkMode } : {}),
    ...(deps.resolveAttachment ? { resolveAttachment: deps.resolveAttachment } : {}),
    ...(deps.attachments ? { materialize: deps.attachments.materialize } : {}),
    ...(setup.thinkOpen !== undefined ? { thinkOpen: setup.thinkOpen } : {}),
    ...(setup.defaultWindow !== undefined ? { defaultWindow: setup.defaultWindow } : {}),
  };
}
