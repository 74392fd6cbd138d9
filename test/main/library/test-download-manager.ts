/**
 * A DownloadManager as the download tests build it: ids at random, no log, retries at once, and its progress
 * events gathered in `events`. `overrides` replace any of its dependencies (a models folder on a full disk, a
 * free-space answer).
 */
import type Database from 'better-sqlite3';
import type { DownloadProgress } from '../../../src/shared/library';
import { DownloadManager } from '../../../src/main/library/downloads/download-manager';
import { FileDigests } from '../../../src/main/library/file-digest';

type Deps = ConstructorParameters<typeof DownloadManager>[0];

export function testDownloadManager(modelsDir: string, db: Database.Database, events: DownloadProgress[], overrides: Partial<Deps> = {}): DownloadManager {
  return new DownloadManager({
    modelsDir: () => modelsDir,
    digests: new FileDigests(db),
    newId: () => Math.random().toString(36).slice(2),
    log: () => {},
    emit: (channel, payload) => {
      if (channel === 'library:download-progress') events.push(payload as DownloadProgress);
    },
    changed: () => {},
    retryDelayMs: () => 0,
    ...overrides,
  });
}
