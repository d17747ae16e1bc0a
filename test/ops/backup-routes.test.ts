/**
 * `POST /system/backups` and `GET /system/backups` through the real app over HTTP:
 * only the hall operator's credential may take and list backups (a workspace key gets
 * 403, issue 22 part 2); the backup holds the live data; no response names a folder of
 * the machine; a missing second directory is reported, a failing backup is a 503 problem.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, registerWorkspace, startTestServer, type TestServer } from '../harness.js';
import { rotateOperatorCredential } from '../../src/hall/operator.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('/system/backups', () => {
  it('needs the operator credential, takes a backup of the live database and lists it', async () => {
    server = await startTestServer();
    const ws = await registerWorkspace(server.baseUrl);
    const operator = rotateOperatorCredential(server.dataDir);
    const anon = await api(server.baseUrl).post('/system/backups');
    expect(anon.status).toBe(401);
    expect(anon.headers.get('content-type')).toContain('application/problem+json');
    expect((await api(server.baseUrl, 'cbt_wrongwrongwrongwrongwrongwrongwrong').get('/system/backups')).status).toBe(401);
    // a workspace key is a known caller that may not do this: 403, for taking and for listing
    for (const call of [api(server.baseUrl, ws.apiKey).post('/system/backups'), api(server.baseUrl, ws.apiKey).get('/system/backups'), api(server.baseUrl).get('/system/backups', { authorization: `Bearer ${ws.apiKey}` })]) {
      const refused = await call;
      expect([refused.status, refused.body.code]).toEqual([403, 'OPERATOR_REQUIRED']);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
    }
    expect((await api(server.baseUrl).get('/system/backups', { 'x-operator-key': `cbtop_${'x'.repeat(40)}` })).status).toBe(401);
    expect(existsSync(join(server.dataDir, 'backups'))).toBe(false); // nothing refused made a backup

    const key = api(server.baseUrl);
    const op = { 'x-operator-key': operator };
    const taken = await key.post('/system/backups', {}, op);
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({
      file: expect.stringMatching(/^hallcbt-\d{8}-\d{6}\.sqlite$/),
      bytes: expect.any(Number),
      durationMs: expect.any(Number),
      createdAt: expect.stringMatching(/Z$/),
      copiedToSecondDir: false,
    });
    expect(taken.body.directory).toBeUndefined();
    const file = join(server.dataDir, 'backups', taken.body.file);
    const copy = new Database(file, { readonly: true });
    expect(copy.prepare('SELECT id FROM workspaces').pluck().all()).toContain(ws.id);
    copy.close();

    const list = await key.get('/system/backups', { authorization: `Bearer ${operator}` });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ intervalMins: 0, keep: 24, secondDirConfigured: false, retention: expect.stringContaining('each hour') });
    expect(list.body.backups).toEqual([{ file: taken.body.file, bytes: taken.body.bytes, createdAt: taken.body.createdAt }]);
    // no machine paths anywhere
    for (const body of [taken.body, list.body]) expect(JSON.stringify(body)).not.toMatch(/\/(tmp|var|home|root|opt|media)\//);

    const doc = await api(server.baseUrl).get('/openapi.json');
    expect(Object.keys(doc.body.paths)).toContain('/system/backups');
  });

  it('reports a second directory it could not write, and answers 503 when the backup itself fails', async () => {
    const dataDir = join(tempDir(), 'data');
    const notADir = `${dataDir}-file`;
    writeFileSync(notADir, 'x');
    server = await startTestServer({ dataDir, config: { CBT_BACKUP_DIR2: join(notADir, 'usb') } });
    const key = api(server.baseUrl);
    const op = { 'x-operator-key': rotateOperatorCredential(dataDir) };

    const partly = await key.post('/system/backups', {}, op);
    expect(partly.status).toBe(201);
    expect(partly.body.copiedToSecondDir).toBe(false);
    expect(partly.body.secondDirError).toMatch(/ENOTDIR|not a directory/);
    expect(partly.body.secondDirError).not.toContain(notADir);
    expect(partly.body.secondDirError).not.toMatch(/\/tmp\//);
    expect((await key.get('/system/backups', op)).body.secondDirConfigured).toBe(true);

    rmSync(join(dataDir, 'backups'), { recursive: true });
    writeFileSync(join(dataDir, 'backups'), 'not a folder'); // the backup folder cannot be created
    const failed = await key.post('/system/backups', {}, op);
    expect(failed.status).toBe(503);
    expect(failed.headers.get('content-type')).toContain('application/problem+json');
    expect(failed.body.detail).toMatch(/^The backup failed/);
    expect(failed.body.detail).not.toContain(dataDir);
    expect(existsSync(join(dataDir, 'hallcbt.sqlite'))).toBe(true);
  });
});
