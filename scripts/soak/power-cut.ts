/**
 * Power-cut rounds of the crash campaign (issue 22 §5): the data directory lives on an
 * ext4 filesystem on a loop device, and a "cut" keeps only what that filesystem had
 * already handed to its block device.
 *
 * How: SIGKILL the server, then at once copy the loop device's backing file (sparse,
 * a few ms). The backing file holds exactly the writes the guest ext4 has issued to
 * /dev/loopN; data that was only in the guest's page cache (a write() never fsynced,
 * metadata not yet committed by jbd2) is not in it, so it is lost, as on a real
 * machine whose power fails. The original filesystem is then unmounted (its late
 * writeback goes to the discarded image), the copy is attached to a new loop device and
 * mounted on the same path — ext4 replays its journal as after a real cut — and the
 * next server starts on it.
 *
 * What it does not model: a disk that reorders or drops writes it acknowledged (a
 * volatile write cache without flush support), torn sectors, and the few milliseconds
 * of the copy itself (kernel writeback during the copy can add blocks written just
 * after the kill). No device-mapper (dm-flakey, dm-log-writes) on this kernel.
 *
 * Needs root, /dev/loop-control, losetup, mkfs.ext4, mount. `unavailable()` says why
 * not; everything is unmounted and detached by `close()`, also after a failure.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PhaseClock } from './phases.js';

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Why power-cut rounds cannot run here, or null when they can. */
export function powerCutUnavailable(): string | null {
  if (process.platform !== 'linux') return 'power-cut rounds need Linux loop devices';
  if (process.getuid?.() !== 0) return 'power-cut rounds need root (loop devices, mount)';
  if (!existsSync('/dev/loop-control')) return 'power-cut rounds need loop devices (/dev/loop-control is missing)';
  for (const tool of ['losetup', 'mkfs.ext4', 'mount', 'umount', 'cp', 'truncate']) {
    try {
      run('sh', ['-c', `command -v ${tool}`]);
    } catch {
      return `power-cut rounds need ${tool}`;
    }
  }
  // a container may have the tools and be root and still not be allowed to mount: try it
  const dir = mkdtempSync(join(tmpdir(), 'hallcbt-loop-probe-'));
  const disk = new LoopDisk(dir, join(dir, 'mnt'), 16);
  try {
    disk.create();
    return null;
  } catch (e) {
    return `power-cut rounds could not mount a loop device here (${(e as Error).message.split('\n')[0]})`;
  } finally {
    disk.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An ext4 filesystem on a loop device, mounted at `mountpoint`, that can lose its unwritten data. */
export class LoopDisk {
  readonly image: string;
  readonly mountpoint: string;
  private device: string | null = null;
  private mounted = false;
  /** copy durations of the cuts, ms */
  readonly copyMs: number[] = [];

  /** @param dir a directory on the host's disk for the image; @param sizeMb image size */
  constructor(dir: string, mountpoint: string, private readonly sizeMb = 512) {
    this.image = join(dir, 'disk.img');
    this.mountpoint = mountpoint;
  }

  /** Creates and mounts a fresh filesystem. @throws when a tool fails */
  create(): void {
    run('truncate', ['-s', `${this.sizeMb}M`, this.image]);
    // inode tables and journal zeroed now: no lazy-init thread writing in the background
    run('mkfs.ext4', ['-q', '-F', '-E', 'lazy_itable_init=0,lazy_journal_init=0', this.image]);
    this.attach();
  }

  private attach(): void {
    mkdirSync(this.mountpoint, { recursive: true });
    this.device = run('losetup', ['--find', '--show', this.image]);
    run('mount', ['-t', 'ext4', this.device, this.mountpoint]);
    this.mounted = true;
  }

  private detach(): void {
    if (this.mounted) {
      run('umount', [this.mountpoint]);
      this.mounted = false;
    }
    if (this.device) {
      run('losetup', ['-d', this.device]);
      this.device = null;
    }
  }

  /**
   * The cut: call it right after the server was SIGKILLed. Keeps what the device had,
   * mounts that on the same path. `clock` (optional) gets the copy and the remount timed.
   */
  cut(clock?: PhaseClock): void {
    const copy = `${this.image}.cut`;
    const t0 = performance.now();
    run('cp', ['--sparse=always', this.image, copy]);
    const t1 = performance.now();
    this.copyMs.push(t1 - t0);
    clock?.add('power cut: image copy', t1 - t0);
    this.detach();
    renameSync(copy, this.image);
    this.attach();
    clock?.add('power cut: unmount, detach, attach the copy, mount (journal replay)', performance.now() - t1);
  }

  /** Unmounts and detaches (best effort, never throws), and deletes the image unless `keepImage`. */
  close(keepImage = false): void {
    try {
      this.detach();
    } catch {
      try {
        run('umount', ['-l', this.mountpoint]);
      } catch { /* not mounted */ }
      if (this.device) try { run('losetup', ['-d', this.device]); } catch { /* gone */ }
      this.device = null;
      this.mounted = false;
    }
    if (!keepImage) rmSync(this.image, { force: true });
    rmSync(`${this.image}.cut`, { force: true });
  }
}
