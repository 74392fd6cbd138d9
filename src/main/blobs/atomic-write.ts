import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Writes `bytes` to `target` through a temp file in the same folder, fsync, rename: a crash leaves the old file
 * or the new one, never half of one. Folders and files are private (0700 / 0600, issue 15): what the data folder
 * holds is the user's. Returns the folder, for a caller that also wants the rename itself made durable.
 */
export async function writeFileAtomic(target: string, bytes: Uint8Array): Promise<string> {
  const dir = dirname(target);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.tmp-${randomUUID()}`);
  try {
    const fh = await open(temp, 'wx', 0o600);
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  return dir;
}
