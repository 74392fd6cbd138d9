/**
 * A conversation's own layer (migration 0005): system prompt and think mode, fed to the engine as the last
 * identity layer so it wins over the app default and the alias.
 */
import type { Database } from 'better-sqlite3';
import type { ConversationSettings } from '../../shared/ipc';
import type { ThinkMode } from '../../shared/models';
import type { IdentityLayer } from '../../shared/identity-layer';
import { UserFacingError } from '../errors';

export class ConversationSettingsStore {
  constructor(private readonly db: Database) {}

  get(conversationId: string): ConversationSettings | undefined {
    const row = this.db.prepare('SELECT system_prompt, think FROM conversations WHERE id = ?').get(conversationId) as
      | { system_prompt: string; think: ThinkMode | null }
      | undefined;
    return row ? { systemPrompt: row.system_prompt, think: row.think } : undefined;
  }

  require(conversationId: string): ConversationSettings {
    const settings = this.get(conversationId);
    if (!settings) throw new UserFacingError('not-found', 'That conversation no longer exists.');
    return settings;
  }

  update(conversationId: string, settings: ConversationSettings): ConversationSettings {
    const changed = this.db
      .prepare('UPDATE conversations SET system_prompt = ?, think = ? WHERE id = ?')
      .run(settings.systemPrompt, settings.think, conversationId).changes;
    if (changed === 0) throw new UserFacingError('not-found', 'That conversation no longer exists.');
    return this.require(conversationId);
  }

  /** The engine's conversation layer; undefined when nothing is set (the other layers decide alone). */
  layer(conversationId: string): IdentityLayer | undefined {
    const s = this.get(conversationId);
    if (!s || (s.systemPrompt.trim() === '' && s.think === null)) return undefined;
    return { ...(s.systemPrompt.trim() !== '' ? { systemPrompt: s.systemPrompt } : {}), ...(s.think !== null ? { think: s.think } : {}) };
  }
}
