/**
 * A real full disk for the tests that need one (round 9): a size-limited tmpfs, filled to 0 bytes free by a filler
 * file. The unit tests' simulated full disks (a migration that throws SQLITE_FULL) cannot show what SQLite, the
 * file system and serve mode really do when write() says ENOSPC: this can.
 *
 * Mounting needs root (CAP_SYS_ADMIN). Where that is missing (a developer's own machine, a container without the
 * capability), `smallDiskUnavailable` says why, and the tests that need a disk print it and do not run, as the
 * Electron-only tests do without their binary.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync, rmdirSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A mounted tmpfs of a few MB; `unmount` takes it away with everything on it. */
export interface SmallDisk {
  dir: string;
  /** Free bytes on it now. */
  free(): number;
  /** Writes a new filler file until the disk has no room left; returns the bytes written. */
  fill(): number;
  /** Deletes the filler files: the room they took is free again. */
  empty(): void;
  unmount(): void;
}

/** What the decision to run the small-disk tests reads (a test of that decision passes its own). */
export interface SmallDiskHost {
  platform: NodeJS.Platform;
  uid: number | undefined;
  mount: (megabytes: number) => SmallDisk;
}

const THIS_HOST: SmallDiskHost = { platform: process.platform, uid: process.getuid?.(), mount: mountSmallDisk };

/**
 * Why no small disk can be mounted here, or undefined where one can: one line with no full stop, which the tests
 * print in a sentence of their own. mount's own message is cut to its first line (its second, "dmesg(1) may have
 * more information...", says nothing here) and loses its full stop (it was printed as "permission denied..").
 */
export function smallDiskUnavailable(host: SmallDiskHost = THIS_HOST): string | undefined {
  if (host.platform !== 'linux') return `a tmpfs is Linux-only (this is ${host.platform})`;
  if (host.uid !== 0) return `mounting a tmpfs needs root (this runs as uid ${host.uid})`;
  let disk: SmallDisk;
  try {
    disk = host.mount(1);
  } catch (err) {
    const said = (err instanceof Error ? err.message : String(err)).trim().split('\n')[0]!.trim().replace(/\.+$/, '');
    return `mount -t tmpfs failed: ${said}`;
  }
  disk.unmount();
  return undefined;
}

/** Mounts a tmpfs of `megabytes` on a new temp folder. Throws what mount says where it cannot. */
export function mountSmallDisk(megabytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'firebrand-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    rmdirSync(dir);
    const stderr = (err as { stderr?: Buffer }).stderr?.toString();
    throw new Error(stderr || (err instanceof Error ? err.message : String(err)));
  }
  let fillers = 0;
  let mounted = true;
  return {
    dir,
    free: () => {
      const s = statfsSync(dir);
      return s.bavail * s.bsize;
    },
    fill: () => fillDisk(join(dir, `filler-${++fillers}`)),
    empty: () => {
      for (; fillers > 0; fillers--) rmSync(join(dir, `filler-${fillers}`), { force: true });
    },
    unmount: () => {
      if (!mounted) return;
      // Lazily where a process still holds a file there (a serve process that did not stop): it goes when they do.
      try {
        execFileSync('umount', [dir], { stdio: 'ignore' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      }
      mounted = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes `file` until write() says ENOSPC: the disk has 0 bytes free after. */
function fillDisk(file: string): number {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(1 << 20, 0x5a);
  let written = 0;
  try {
    // Ever smaller writes: the last MB may have only a few pages left.
    for (let size = block.length; size >= 512; ) {
      try {
        written += writeSync(fd, block, 0, size);
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'ENOSPC') throw err;
        size >>= 1;
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}
