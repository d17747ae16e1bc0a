/**
 * The throwaway PostgreSQL cluster the hub's tests run on: it starts, answers queries
 * over TCP on loopback, keeps databases apart, and leaves nothing behind when stopped.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, pgAvailability, startPgCluster, type PgCluster } from '../pg/cluster.js';

// Skips, with the printed line saying why, where PostgreSQL's server binaries are absent
// (a fresh clone without `.ci/run`'s packages); CI installs them, so there it runs.
const skipWhy = pgAvailability();
if (skipWhy) console.log(skipWhy);

describe.skipIf(skipWhy !== null)('throwaway PostgreSQL cluster', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('serves queries on loopback and keeps databases apart', async () => {
    const url = cluster.createDatabase('hub_one');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CREATE TABLE t (n int)');
      await client.query('INSERT INTO t VALUES (41), (1)');
      const { rows } = await client.query('SELECT sum(n)::int AS s FROM t');
      expect(rows[0].s).toBe(42);
    } finally {
      await client.end();
    }
    const other = new pg.Client({ connectionString: cluster.createDatabase('hub_two') });
    await other.connect();
    try {
      await expect(other.query('SELECT * FROM t')).rejects.toThrow(/does not exist/);
    } finally {
      await other.end();
    }
  });

  it('removes its directory when stopped', async () => {
    const extra = await startPgCluster();
    expect(existsSync(extra.dir)).toBe(true);
    await extra.stop();
    expect(existsSync(extra.dir)).toBe(false);
  });

  it('starts on another port when the free port it was given is taken before postgres binds it', async () => {
    // the race of freePort(): another process listens on the port between its release and pg_ctl
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const taken = (holder.address() as { port: number }).port;
    const tried: number[] = [];
    try {
      const nextPort = async () => {
        const port = tried.length === 0 ? taken : await freePort();
        tried.push(port);
        return port;
      };
      const c = await startPgCluster({ nextPort });
      try {
        expect(tried[0]).toBe(taken);
        expect(tried).toHaveLength(2);
        expect(c.port).toBe(tried[1]);
        const client = new pg.Client({ connectionString: c.url });
        await client.connect();
        try {
          expect((await client.query('SELECT 1 AS one')).rows[0].one).toBe(1);
        } finally {
          await client.end();
        }
      } finally {
        await c.stop();
      }
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });

  it('does not retry a start that failed for another reason, and says why', async () => {
    let ports = 0;
    const start = startPgCluster({
      settings: { shared_buffers: 'lots' },
      nextPort: async () => {
        ports++;
        return freePort();
      },
    });
    await expect(start).rejects.toThrow(/pg_ctl start failed[\s\S]*shared_buffers/);
    expect(ports).toBe(1);
  });
});
