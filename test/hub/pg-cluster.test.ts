/**
 * The throwaway PostgreSQL cluster the hub's tests run on: it starts, answers queries
 * over TCP on loopback, keeps databases apart, and leaves nothing behind when stopped.
 */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgAvailability, startPgCluster, type PgCluster } from '../pg/cluster.js';

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
});
