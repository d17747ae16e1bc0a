/**
 * How an attempt's layout is stored (src/core/exams/layout-codec.ts; docs/decisions.md, "An
 * attempt's layout is stored compactly"): the compact form round-trips flat and sectioned
 * layouts, writes each section's name once, reads the first form (one object per question)
 * as it was, refuses a damaged row, and the SQL test for "sectioned" knows both forms.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { parseLayout, sectionedLayoutSql, serializeLayout, type LayoutEntry } from '../../src/core/exams/layout-codec.js';

const id = (p: string, n: number, len: number) => `${p}_${String(n).padStart(len, '0')}`;
/** A 180-question layout: flat, or in the UTME paper's four sections (60/40/40/40). */
function layout(sectioned: boolean): LayoutEntry[] {
  const names = ['Use of English', 'Mathematics', 'Physics', 'Biology'];
  return Array.from({ length: 180 }, (_, i) => ({
    questionId: id('q', i, 16),
    optionIds: [3, 1, 0, 2].map((k) => id('opt', i * 4 + k, 5)),
    ...(sectioned ? { section: names[i < 60 ? 0 : 1 + Math.floor((i - 60) / 40)]! } : {}),
  }));
}
/** The first stored form: JSON.stringify of the entries. */
const firstForm = (l: LayoutEntry[]) => JSON.stringify(l);

describe('stored layouts', () => {
  it('round-trip, flat and sectioned, with options in the order shown', () => {
    for (const sectioned of [false, true]) {
      const l = layout(sectioned);
      expect(parseLayout(serializeLayout(l))).toEqual(l);
    }
    expect(parseLayout(serializeLayout([]))).toEqual([]);
  });

  it('write each section once and no key per question: a 180-question sectioned layout is the size of a flat one', () => {
    const flat = serializeLayout(layout(false));
    const sectioned = serializeLayout(layout(true));
    expect(sectioned.match(/"s":/g)).toHaveLength(4);
    expect(sectioned).not.toContain('questionId');
    expect(sectioned.length - flat.length).toBeLessThan(100);
    // against the first form: ~40 % less for the sectioned layout, ~25 % for the flat one
    expect(sectioned.length).toBeLessThan(0.65 * firstForm(layout(true)).length);
    expect(flat.length).toBeLessThan(0.8 * firstForm(layout(false)).length);
  });

  it('read the first form (attempts started before the change) as it was', () => {
    for (const sectioned of [false, true]) {
      const l = layout(sectioned);
      expect(parseLayout(firstForm(l))).toEqual(l);
    }
  });

  it('refuse a damaged row instead of giving the candidate another paper', () => {
    for (const bad of ['{}', '[1]', '[["q_1"]]', '[["q_1",[2]]]', '[{"x":1}]', '[{"questionId":"q_1"}]', 'not json']) expect(() => parseLayout(bad), bad).toThrow();
  });

  it('are told sectioned or not by SQL, in either form', () => {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE t (name TEXT, layout_json TEXT)');
      const put = db.prepare('INSERT INTO t VALUES (?, ?)');
      put.run('compact sectioned', serializeLayout(layout(true)));
      put.run('first-form sectioned', firstForm(layout(true)));
      put.run('compact flat', serializeLayout(layout(false)));
      put.run('first-form flat', firstForm(layout(false)));
      put.run('empty', '[]');
      const hits = db.prepare(`SELECT name FROM t WHERE ${sectionedLayoutSql('layout_json')} ORDER BY name`).pluck().all();
      expect(hits).toEqual(['compact sectioned', 'first-form sectioned']);
    } finally {
      db.close();
    }
  });
});
