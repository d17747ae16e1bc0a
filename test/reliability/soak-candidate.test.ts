/**
 * The soak's virtual candidate keeps its queue the way the candidate page does
 * (web/candidate/answers.ts): an answer replaced before any 200 acknowledged it is sent
 * again even when the server holds a newer answer to its question (the page's `skipped`
 * seqs), and a submit's final copy holds one answer per question. Without the first, a
 * seq lost in a kill held `durableSeq` back for good; without the second, the queue that
 * grew meanwhile went over the 500 items a submit takes and every submit answered 400
 * (the first attempt at issue 22's 1,000-kill run: one candidate, 210 refused submits).
 */
import { describe, expect, it } from 'vitest';
import { VirtualCandidate, type PaperQuestion } from '../../scripts/soak/candidate.js';

const questions: PaperQuestion[] = [
  { id: 'q1', type: 'MCQ', optionIds: ['a', 'b', 'c', 'd'] },
  { id: 'q2', type: 'MCQ', optionIds: ['a', 'b', 'c', 'd'] },
];

/** A deterministic rng that picks q1, then q1, then q2, … (index = floor(r × length)). */
function picks(...rs: number[]): () => number {
  let i = 0;
  return () => rs[i++ % rs.length]!;
}

describe('soak virtual candidate', () => {
  it('replays a replaced answer that was never acknowledged although the server holds a newer one', () => {
    const c = new VirtualCandidate('ROOM', 'S1', '1234', 'att_1', questions);
    const first = c.give(picks(0, 0.5, 0.2)); // q1, seq 1 — its request is cut off by a kill
    const second = c.give(picks(0, 0.5, 0.3)); // q1 again, seq 2 — arrives
    c.markAcked([second.seq]);
    c.adoptServer([{ ...second }]);
    const unsent = c.unsent().map((a) => a.seq);
    expect(unsent).toEqual([first.seq]);
  });

  it('trusts an acknowledged answer superseded on the server, and an answer listed under its own seq', () => {
    const c = new VirtualCandidate('ROOM', 'S1', '1234', 'att_1', questions);
    const a = c.give(picks(0, 0.5, 0.2));
    c.markAcked([a.seq]);
    const b = c.give(picks(0, 0.5, 0.3));
    c.adoptServer([{ ...b }]);
    expect(c.unsent()).toEqual([]);
  });

  it('sends one answer per question, the newest, as the final copy however long the queue', () => {
    const c = new VirtualCandidate('ROOM', 'S1', '1234', 'att_1', questions);
    for (let i = 0; i < 700; i++) c.give(picks(i % 2 ? 0.9 : 0, 0.5, 0.25));
    const copy = c.queue();
    expect(copy.map((a) => a.questionId).sort()).toEqual(['q1', 'q2']);
    expect(copy.map((a) => a.seq)).toEqual([699, 700]);
  });
});
