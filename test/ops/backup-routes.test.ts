/**
 * `POST /system/backups` and `GET /system/backups` through the real app over HTTP:
 * any workspace's API key may take and list backups; the backup holds the live data; a
 * missing second directory is reported, a failing backup is a 503 problem.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, registerWorkspace, startTestServer, type TestServer } from '../harness.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('/system/backups', () => {
  it('needs an API key, takes a backup of the live database and lists it', async () => {
    server = await startTestServer();
    const ws = await registerWorkspace(server.baseUrl);
    const anon = await api(server.baseUrl).post('/system/backups');
    expect(anon.status).toBe(401);
    expect(anon.headers.get('content-type')).toContain('application/problem+json');
    expect((await api(server.baseUrl, 'cbt_wrongwrongwrongwrongwrongwrongwrong').get('/system/backups')).status).toBe(401);

    const key = api(server.baseUrl, ws.apiKey);
    const taken = await key.post('/system/backups');
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({
      file: expect.stringMatching(/^hallcbt-\d{8}-\d{6}\.sqlite$/),
      bytes: expect.any(Number),
      durationMs: expect.any(Number),
      createdAt: expect.stringMatching(/Z$/),
      directory: join(server.dataDir, 'backups'),
      copiedToSecondDir: false,
    });
    const file = join(taken.body.directory, taken.body.file);
    const copy = new Database(file, { readonly: true });
    expect(copy.prepare('SELECT id FROM workspaces').pluck().all()).toContain(ws.id);
    copy.close();

    const list = await key.get('/system/backups');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ directory: join(server.dataDir, 'backups'), intervalMins: 0, keep: 24, secondDir: null });
    expect(list.body.backups).toEqual([{ file: taken.body.file, bytes: taken.body.bytes, createdAt: taken.body.createdAt }]);

    const doc = await api(server.baseUrl).get('/openapi.json');
    expect(Object.keys(doc.body.paths)).toContain('/system/backups');
  });

  it('reports a second directory it could not write, and answers 503 when the backup itself fails', async () => {
    const dataDir = join(tempDir(), 'data');
    const notADir = `${dataDir}-file`;
    writeFileSync(notADir, 'x');
    server = await startTestServer({ dataDir, config: { CBT_BACKUP_DIR2: join(notADir, 'usb') } });
    const ws = await registerWorkspace(server.baseUrl);
    const key = api(server.baseUrl, ws.apiKey);

    const partly = await key.post('/system/backups');
    expect(partly.status).toBe(201);
    expect(partly.body.copiedToSecondDir).toBe(false);
    expect(partly.body.secondDirError).toMatch(/ENOTDIR|not a directory/);
    expect((await key.get('/system/backups')).body.secondDir).toBe(join(notADir, 'usb'));

    rmSync(join(dataDir, 'backups'), { recursive: true });
    writeFileSync(join(dataDir, 'backups'), 'not a folder'); // the backup folder cannot be created
    const failed = await key.post('/system/backups');
    expect(failed.status).toBe(503);
    expect(failed.headers.get('content-type')).toContain('application/problem+json');
    expect(failed.body.detail).toMatch(/^The backup failed/);
    expect(existsSync(join(dataDir, 'hallcbt.sqlite'))).toBe(true);
  });
});
