/**
 * The decision the full-disk tests make before they run (round 11): where no tmpfs can be mounted they print why,
 * in one sentence, and do not run. Checked for real as uid 65534 and as root without CAP_SYS_ADMIN (setpriv); here
 * the same decisions with the host's answers given, so they hold on a machine where this runs as root.
 */
import { describe, expect, it } from 'vitest';
import { smallDiskUnavailable, type SmallDisk } from './small-disk';

const refused = (message: string) => () => {
  throw new Error(message);
};

describe('the small-disk tests run only where a tmpfs can be mounted', () => {
  it('says why not off Linux, and as a user other than root, without trying to mount', () => {
    const mount = refused('not to be called');
    expect(smallDiskUnavailable({ platform: 'darwin', uid: 501, mount })).toBe('a tmpfs is Linux-only (this is darwin)');
    expect(smallDiskUnavailable({ platform: 'linux', uid: 65534, mount })).toBe('mounting a tmpfs needs root (this runs as uid 65534)');
  });

  it("gives mount's own reason in one line, ready to end a sentence, where root may not mount (no CAP_SYS_ADMIN)", () => {
    // What mount(8) wrote here as root with CAP_SYS_ADMIN dropped (setpriv --bounding-set=-sys_admin).
    const said = 'mount: /tmp/firebrand-small-disk-evNhy6: permission denied.\n       dmesg(1) may have more information after failed mount system call.\n';
    const why = smallDiskUnavailable({ platform: 'linux', uid: 0, mount: refused(said) });
    expect(`Full-disk end-to-end tests not run: ${why}.`).toBe('Full-disk end-to-end tests not run: mount -t tmpfs failed: mount: /tmp/firebrand-small-disk-evNhy6: permission denied.');
  });

  it('runs them where the trial mount works, and takes the trial disk away', () => {
    let unmounted = 0;
    const disk: SmallDisk = { dir: '/tmp/x', free: () => 0, fill: () => 0, empty: () => {}, unmount: () => void unmounted++ };
    expect(smallDiskUnavailable({ platform: 'linux', uid: 0, mount: () => disk })).toBeUndefined();
    expect(unmounted).toBe(1);
  });
});
