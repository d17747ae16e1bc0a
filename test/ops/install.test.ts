/**
 * scripts/install in a throwaway fake root (issue 9: "an install-script test in a throwaway
 * directory with a fake root"): the user, the data directory, the app copy, the site settings,
 * the unit and its enablement land where they should with the right owners and modes, and a
 * second run (an upgrade) converges to the same state, keeping the technician's settings.
 * Needs root (useradd, chown), as the real install does.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, tempDir, removeTempDirs } from './helpers.js';
import { isOperatorCredential } from '../../src/hall/operator.js';

afterAll(removeTempDirs);

const isRoot = process.getuid?.() === 0;
const hasSystemctl = spawnSync('systemctl', ['--version']).status === 0;

/** A small HallCBT folder to install (the real unit and scripts, a stand-in app). */
function fakeSource(): string {
  const src = join(tempDir('hallcbt-src-'), 'hallcbt');
  mkdirSync(join(src, 'src'), { recursive: true });
  cpSync(join(REPO, 'systemd'), join(src, 'systemd'), { recursive: true });
  cpSync(join(REPO, 'scripts'), join(src, 'scripts'), { recursive: true });
  writeFileSync(join(src, 'package.json'), '{"name":"hallcbt","version":"1.2.0"}\n');
  writeFileSync(join(src, 'src', 'main.ts'), 'export {};\n');
  for (const d of ['node_modules/better-sqlite3', 'dist/src', '.git', 'data', 'test']) mkdirSync(join(src, d), { recursive: true });
  writeFileSync(join(src, 'dist', 'src', 'main.js'), '// built\n');
  writeFileSync(join(src, 'data', 'hallcbt.sqlite'), 'a developer database');
  return src;
}

function install(args: string[]) {
  return spawnSync(join(REPO, 'scripts', 'install'), args, { encoding: 'utf8' });
}

/** uid/gid of `name` in the fake root's /etc/passwd. */
function fakeIds(root: string): { uid: number; gid: number; line: string } {
  const line = readFileSync(join(root, 'etc', 'passwd'), 'utf8').split('\n').find((l) => l.startsWith('hallcbt:'))!;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid), line };
}

describe.skipIf(!isRoot)('scripts/install (fake root)', () => {
  it('creates user, data directory, app, settings and unit; a second run converges', () => {
    const src = fakeSource();
    const root = tempDir('hallcbt-root-');
    const first = install(['--root', root, '--source', src, '--no-npm']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);

    const { uid, gid, line } = fakeIds(root);
    expect(line).toMatch(/^hallcbt:x:\d+:\d+:[^:]*:\/var\/lib\/hallcbt:\/usr\/sbin\/nologin$/);
    expect(uid).toBeLessThan(1000); // a system account
    expect(readFileSync(join(root, 'etc', 'group'), 'utf8')).toMatch(new RegExp(`^hallcbt:x:${gid}:`, 'm'));

    for (const d of ['var/lib/hallcbt', 'var/lib/hallcbt/backups']) {
      const st = statSync(join(root, d));
      expect({ mode: st.mode & 0o777, uid: st.uid, gid: st.gid }, d).toEqual({ mode: 0o700, uid, gid });
    }
    // the hall operator's credential: printed once, only its digest kept, readable by the service alone
    const credential = /(cbtop_[0-9A-Za-z]{40})/.exec(first.stdout)?.[1];
    expect(credential).toBeDefined();
    const opFile = join(root, 'var', 'lib', 'hallcbt', 'operator.key');
    const op = statSync(opFile);
    expect({ mode: op.mode & 0o777, uid: op.uid, gid: op.gid }).toEqual({ mode: 0o600, uid, gid });
    expect(isOperatorCredential(join(root, 'var', 'lib', 'hallcbt'), credential!)).toBe(true);
    expect(readFileSync(opFile, 'utf8')).not.toContain(credential!);

    const app = join(root, 'opt', 'hallcbt');
    expect(existsSync(join(app, 'package.json'))).toBe(true);
    expect(existsSync(join(app, 'dist', 'src', 'main.js'))).toBe(true); // --no-npm: the prebuilt app comes along
    expect(existsSync(join(app, 'node_modules', 'better-sqlite3'))).toBe(true);
    for (const never of ['.git', 'data', 'test']) expect(existsSync(join(app, never)), never).toBe(false);
    expect(statSync(join(app, 'package.json')).uid).toBe(0); // the service cannot change its code
    expect(statSync(join(app, 'scripts', 'restore')).mode & 0o111).not.toBe(0);

    const unit = join(root, 'etc', 'systemd', 'system', 'hallcbt.service');
    expect(readFileSync(unit, 'utf8')).toBe(readFileSync(join(REPO, 'systemd', 'hallcbt.service'), 'utf8'));
    expect(statSync(unit).mode & 0o777).toBe(0o644);
    if (hasSystemctl) {
      const wants = join(root, 'etc', 'systemd', 'system', 'multi-user.target.wants', 'hallcbt.service');
      expect(readlinkSync(wants)).toBe('/etc/systemd/system/hallcbt.service');
    }

    const envFile = join(root, 'etc', 'hallcbt.env');
    const env = statSync(envFile);
    expect({ mode: env.mode & 0o777, uid: env.uid, gid: env.gid }).toEqual({ mode: 0o640, uid: 0, gid });
    expect(readFileSync(envFile, 'utf8')).toContain('#CBT_BACKUP_DIR2=');

    // Upgrade: the technician's settings and the data stay, the old app is kept for a rollback.
    appendFileSync(envFile, 'PORT=9090\n');
    writeFileSync(join(root, 'var', 'lib', 'hallcbt', 'hallcbt.sqlite'), 'exam data');
    writeFileSync(join(src, 'package.json'), '{"name":"hallcbt","version":"1.2.1"}\n');
    const second = install(['--root', root, '--source', src, '--no-npm']);
    expect(second.stderr).toBe('');
    expect(second.status).toBe(0);
    expect(second.stdout).not.toContain('creating system user');
    expect(second.stdout).not.toMatch(/cbtop_/); // shown only once; the first one still works
    expect(isOperatorCredential(join(root, 'var', 'lib', 'hallcbt'), credential!)).toBe(true);
    expect(fakeIds(root)).toEqual({ uid, gid, line });
    expect(readFileSync(join(root, 'etc', 'passwd'), 'utf8').match(/^hallcbt:/gm)).toHaveLength(1);
    expect(readFileSync(envFile, 'utf8')).toContain('PORT=9090');
    expect(readFileSync(join(root, 'var', 'lib', 'hallcbt', 'hallcbt.sqlite'), 'utf8')).toBe('exam data');
    expect(readFileSync(join(app, 'package.json'), 'utf8')).toContain('1.2.1');
    expect(readFileSync(join(root, 'opt', 'hallcbt.old', 'package.json'), 'utf8')).toContain('1.2.0');
    expect(existsSync(join(root, 'opt', 'hallcbt.new'))).toBe(false);
  });

  it('--no-systemctl leaves systemd alone; --link links instead of copying', () => {
    const src = fakeSource();
    const root = tempDir('hallcbt-root-');
    const r = install(['--root', root, '--source', src, '--no-npm', '--no-systemctl', '--link']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('systemctl enable --now hallcbt');
    expect(existsSync(join(root, 'etc', 'systemd', 'system', 'multi-user.target.wants'))).toBe(false);
    expect(existsSync(join(root, 'etc', 'systemd', 'system', 'hallcbt.service'))).toBe(true);
    expect(lstatSync(join(root, 'opt', 'hallcbt')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, 'opt', 'hallcbt'))).toBe(src);
  });

  it('rejects unknown options and folders that are not HallCBT', () => {
    expect(install(['--frobnicate']).status).not.toBe(0);
    const r = install(['--root', tempDir(), '--source', tempDir(), '--no-npm']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('does not look like a HallCBT folder');
  });
});
