/**
 * The services as the app makes them, with the server watch's looks made only when a test asks
 * (models:watch-now), and every `models:changed` told to the pages collected: folder-watch and server-list-watch.
 */
import { join } from 'node:path';
import { createServices, type Services } from '../../../src/main/services';
import type { ModelsChanged } from '../../../src/shared/models';

export function watchedServices(dir: string, modelsDir: string): { services: Services; changes: ModelsChanged[] } {
  const services = createServices({ dataDir: join(dir, 'data'), modelsDir, log: () => {}, watchServers: { upIntervalMs: 3_600_000, backoffMs: [3_600_000] } });
  const changes: ModelsChanged[] = [];
  services.hub.connect((channel, payload) => {
    if (channel === 'models:changed') changes.push(payload as ModelsChanged);
  });
  return { services, changes };
}
