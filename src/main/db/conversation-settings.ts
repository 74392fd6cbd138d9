/**
 * A conversation's own layer (migration 0005): system prompt and think mode, fed to the engine as the last
 * identity layer so it wins over the app default and the alias; and whether it offers tools at all (0006).
 */
import type { Database } from 'better-sqlite3';
import type { ConversationSettings } from '../../shared/ipc';
import type { ThinkMode } from '../../shared/models';
import type { IdentityLayer } from '../../shared/identity-layer';
import { UserFacingError } from '../errors';

export class ConversationSettingsStore {
  /** `changed` hears each update with the settings as saved: a chat open in another tab follows them. */
  constructor(
    private readonly db: Database,
    private readonly changed: (conversationId: string, settings: ConversationSettings) => void = () => {},
  ) {}

  get(conversationId: string): ConversationSettings | undefined {
    const row = this.db.prepare('SELECT system_prompt, think, tools FROM conversations WHERE id = ?').get(conversationId) as
      | { system_prompt: string; think: ThinkMode | null; tools: number }
      | undefined;
    return row ? { systemPrompt: row.system_prompt, think: row.think, tools: row.tools !== 0 } : undefined;
  }

  require(conversationId: string): ConversationSettings {
    const settings = this.get(conversationId);
    if (!settings) throw new UserFacingError('not-found', 'That conversation no longer exists.');
    return settings;
  }

  /** `tools` absent: left as it is (a caller from before the switch existed). */
  update(conversationId: string, settings: Omit<ConversationSettings, 'tools'> & { tools?: boolean }): ConversationSettings {
    const changed = this.db
      .prepare('UPDATE conversations SET system_prompt = ?, think = ?, tools = COALESCE(?, tools) WHERE id = ?')
      .run(settings.systemPrompt, settings.think, settings.tools === undefined ? null : settings.tools ? 1 : 0, conversationId).changes;
    if (changed === 0) throw new UserFacingError('not-found', 'That conversation no longer exists.');
    const saved = this.require(conversationId);
    this.changed(conversationId, saved);
    return saved;
  }

  /** Whether the conversation offers tools to the model (true for one that does not exist: nothing to turn off). */
  toolsOn(conversationId: string): boolean {
    return this.get(conversationId)?.tools ?? true;
  }

  /** The engine's conversation layer; undefined when nothing is set (the other layers decide alone). */
  layer(conversationId: string): IdentityLayer | undefined {
    const s = this.get(conversationId);
    return s ? settingsLayer(s) : undefined;
  }
}

/** The engine's conversation layer for these settings; undefined when nothing is set. */
export function settingsLayer(s: Pick<ConversationSettings, 'systemPrompt' | 'think'>): IdentityLayer | undefined {
  if (s.systemPrompt.trim() === '' && s.think === null) return undefined;
  return { ...(s.systemPrompt.trim() !== '' ? { systemPrompt: s.systemPrompt } : {}), ...(s.think !== null ? { think: s.think } : {}) };
}
