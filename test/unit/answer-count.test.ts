/**
 * The answer buffer's answered counts (AnswerBuffer.answeredCount, kept as saves arrive for
 * the live monitor) never disagree with counting the current answers through `answersFor`:
 * random saves — options, texts, blank texts, clears, stale replays that are refused,
 * forgiven seqs — with flushes that run while saves go on, submits (flushAttempt), resumes
 * (seal), completed attempts released and read again, evictions, and restarts (a clean
 * shutdown or a crash), on a real SQLite file, with the in-process writer and the thread.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/random.js';
import { openDatabase } from '../../src/db/index.js';
import { AnswerBuffer } from '../../src/modules/answers/answer-buffer.js';
import { threadWriter } from '../../src/modules/answers/answer-writer.js';
import { countsAsAnswered } from '../../src/modules/answers/index.js';
import { silentLogger } from '../../src/platform/logger.js';
import { tempDir } from '../harness.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A seeded generator of numbers in [0, 1) (core/random.ts's mulberry32), so a failing seed can be replayed. */
function rng(seed: number) {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

const QUESTIONS = Array.from({ length: 12 }, (_, i) => `q${i}`);
const ATTEMPTS = ['a1', 'a2', 'a3'];
const TEXTS = ['an essay', '  ', '', '\n\t', ' x ', '\u00a0', 'word'];

async function run(seed: number, threaded: boolean): Promise<void> {
  const d = tempDir('answer-count-');
  dirs.push(d);
  const file = join(d, 'db.sqlite');
  const { sqlite } = openDatabase(file);
  const make = () => new AnswerBuffer(sqlite, { maxEntries: 8, ...(threaded ? { writer: threadWriter(file, sqlite, silentLogger, 'NORMAL', 3) } : {}) });
  let b = make();
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const inFlight: Promise<unknown>[] = [];
  const check = (step: string) => {
    for (const att of ATTEMPTS) {
      const given = QUESTIONS.filter(() => r() < 0.5);
      const read = () => b.answersFor(att, QUESTIONS).filter((a) => countsAsAnswered(a.optionId, a.text)).length;
      // either order: answeredCount of an attempt without state reads the rows and keeps no state
      const [count, expected] = r() < 0.5 ? [b.answeredCount(att), read()] : [read(), b.answeredCount(att)].reverse();
      expect(count, `${step}: ${att}`).toBe(expected);
      const within = b.answersFor(att, given).filter((a) => countsAsAnswered(a.optionId, a.text)).length;
      expect(b.answeredCount(att, new Set(given)), `${step}: ${att} within ${given.join(',')}`).toBe(within);
    }
  };
  for (let i = 0; i < 260; i++) {
    const att = pick(ATTEMPTS);
    const q = pick(QUESTIONS);
    const x = r();
    let step: string;
    if (x < 0.6) {
      // a save: an option, a text (maybe blank), or a clear; numbered next, ahead, or stale
      const kind = r();
      const [optionId, text] = kind < 0.4 ? [`o${Math.floor(r() * 3)}`, null] : kind < 0.8 ? [null, pick(TEXTS)] : [null, null];
      const last = b.lastSeq(att);
      const seq = r() < 0.2 ? Math.max(1, last - Math.floor(r() * 4)) : r() < 0.5 ? undefined : last + 1 + Math.floor(r() * 3);
      const res = b.save(att, q, optionId, text, seq);
      step = `save ${att} ${q} ${optionId ?? JSON.stringify(text)} seq ${res.seq} ${res.applied ? 'applied' : 'refused'}`;
    } else if (x < 0.68) {
      step = 'flush (awaited later)';
      inFlight.push(b.flush());
    } else if (x < 0.74) {
      step = 'flush';
      await b.flush();
    } else if (x < 0.78) {
      step = `forgive ${att}`;
      b.forgive(att, b.lastSeq(att) + 1 + Math.floor(r() * 2));
    } else if (x < 0.83) {
      step = `submit ${att}`;
      b.flushAttempt(att);
    } else if (x < 0.88) {
      step = `resume ${att} (seal)`;
      b.seal(att);
    } else if (x < 0.93) {
      step = `release ${att}`;
      b.release(att);
    } else if (x < 0.97) {
      step = 'wait for flushes';
      await Promise.all(inFlight.splice(0));
    } else {
      const clean = r() < 0.5;
      step = clean ? 'restart (clean shutdown)' : 'restart (crash: unflushed saves lost)';
      await Promise.all(inFlight.splice(0));
      await b.close();
      if (clean) b.flushAllSync();
      b = make();
    }
    check(`seed ${seed}, step ${i}: ${step}`);
  }
  await Promise.all(inFlight.splice(0));
  await b.close();
  sqlite.close();
}

describe('AnswerBuffer.answeredCount', () => {
  it('agrees with counting answersFor after every step (in-process writer)', async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) await run(seed, false);
  });

  it('agrees with counting answersFor after every step (writer thread: flushes in flight while saves go on)', async () => {
    for (const seed of [11, 12, 13]) await run(seed, true);
  }, 60_000);

  it('counts an option or a text that is not blank, and follows a clear', () => {
    const d = tempDir('answer-count-');
    dirs.push(d);
    const b = new AnswerBuffer(openDatabase(join(d, 'db.sqlite')).sqlite);
    b.save('a', 'q1', 'o1', null);
    b.save('a', 'q2', null, ' \n ');
    b.save('a', 'q3', null, 'text');
    expect(b.answeredCount('a')).toBe(2);
    expect(b.answeredCount('a', new Set(['q2', 'q3']))).toBe(1);
    b.save('a', 'q1', null, null);
    expect(b.answeredCount('a')).toBe(1);
    b.flushAllSync();
    b.release('a');
    expect(b.answeredCount('a')).toBe(1);
    expect(b.holds('a')).toBe(false);
  });
});
