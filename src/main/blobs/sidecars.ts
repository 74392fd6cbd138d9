/**
 * Files derived from a blob and kept beside it (`<dataDir>/blobs/ab/cd/<digest>.<suffix>`): a document's
 * extracted text, a photo's scaled-copy record (src/main/documents). Worked out once per content, so a file
 * left from an earlier life of the same digest is still right for it; GC removes them with their blob
 * (src/main/blobs/blob-gc.ts), since a deleted conversation's text must not stay on disk.
 */
import { readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-write';

const SUFFIX = /^[a-z0-9][a-z0-9.-]*$/;

export class Sidecars {
  /** `blobPath`: where a blob's own bytes live (BlobStore.pathOf). */
  constructor(private readonly blobPath: (digest: string) => string) {}

  path(digest: string, suffix: string): string {
    if (!SUFFIX.test(suffix)) throw new Error(`not a sidecar suffix: ${suffix}`);
    return `${this.blobPath(digest)}.${suffix}`;
  }

  /** The sidecar's bytes, or undefined when it was never written (or went with its blob). */
  read(digest: string, suffix: string): Uint8Array | undefined {
    try {
      return readFileSync(this.path(digest, suffix));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Temp file, fsync, rename: a crash leaves the old sidecar or the new one, never half of one. */
  async write(digest: string, suffix: string, bytes: Uint8Array): Promise<void> {
    // Private like the blobs themselves: extracted text is the user's document.
    await writeFileAtomic(this.path(digest, suffix), bytes);
  }

  /** Removes every sidecar of these blobs (GC calls it for the blobs it removed). */
  async removeFor(digests: readonly string[]): Promise<void> {
    for (const digest of digests) {
      const blob = this.blobPath(digest);
      const prefix = `${basename(blob)}.`;
      const names = await readdir(dirname(blob)).catch(() => [] as string[]);
      for (const name of names) if (name.startsWith(prefix)) await rm(join(dirname(blob), name), { force: true });
    }
  }
}
