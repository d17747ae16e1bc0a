/**
 * A virtual candidate, kept by the driver the way the candidate page (web/candidate/
 * answers.ts) keeps its state in localStorage: its own seq counter, every answer it ever
 * gave (by seq), and a queue of answers. An answer leaves the queue only when (1) the
 * server acknowledged holding it (a 200 to the request that carried it, or a session
 * body listing that seq for its question — or a newer one, for an answer a 200 had
 * already acknowledged) and (2) a response's
 * `durableSeq` covers its seq (docs/design.md §7). After a restart, queued answers the server no
 * longer holds are replayed with their original seqs, so a replay never overwrites a
 * newer answer.
 *
 * An answer that left the queue is *trusted*: the candidate will never send it again, so
 * losing it would be losing acknowledged work. The candidate judges the server with:
 * - `lostDurable(server)`: trusted answers the server no longer has (must be none);
 * - `diverged(server)`: questions where the server's answer is not the candidate's
 *   latest (must be none once the queue has been replayed).
 */
export interface Given {
  questionId: string;
  optionId: string | null;
  text: string | null;
}

export interface ServerAnswer extends Given {
  seq: number;
}

/** A queued answer; `acked` once the server said it holds it. */
export interface PendingAnswer extends ServerAnswer {
  acked: boolean;
}

export interface PaperQuestion {
  id: string;
  type: string;
  optionIds: string[];
}

const WORDS = ['photosynthesis', 'chlorophyll', 'osmosis', 'naira', 'équation', 'Lagos', 'electrolysis', 'Ọ̀yọ́', 'velocity', '₦500', 'mitochondria', 'ratio', '√2', 'Abuja'];

export class VirtualCandidate {
  /** the page's own counter: the next answer gets counter + 1 */
  counter = 0;
  /** highest durableSeq the server ever acknowledged to this candidate */
  ackDurable = 0;
  readonly history = new Map<number, Given>();
  readonly latest = new Map<string, ServerAnswer>();
  /** answers not yet acknowledged and covered by durableSeq, by seq (the localStorage queue) */
  readonly pending = new Map<number, PendingAnswer>();
  /** question → highest seq the candidate dropped from its queue as durable */
  readonly trusted = new Map<string, number>();
  status: 'IN_PROGRESS' | 'SUBMITTING' | 'COMPLETED' = 'IN_PROGRESS';
  /** a 200 submit response arrived (the completion is acknowledged) */
  submitAcked = false;
  /** remainingSeconds of the last response and when it arrived (epoch ms) */
  lastClock: { remainingSeconds: number; at: number } | null = null;

  constructor(
    readonly accessCode: string,
    readonly studentId: string,
    readonly pin: string,
    readonly attemptId: string,
    readonly questions: PaperQuestion[],
  ) {}

  /** Picks a question and an answer (sometimes clearing an MCQ), recording it under the next seq. */
  give(rng: () => number): ServerAnswer {
    const q = this.questions[Math.floor(rng() * this.questions.length)]!;
    const seq = ++this.counter;
    let optionId: string | null = null;
    let text: string | null = null;
    if (q.optionIds.length) {
      optionId = rng() < 0.05 ? null : q.optionIds[Math.floor(rng() * q.optionIds.length)]!;
    } else {
      const n = rng() < 0.1 ? 300 : 5 + Math.floor(rng() * 40);
      text = `${this.studentId} #${seq}: ` + Array.from({ length: n }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(' ');
    }
    const a: ServerAnswer = { questionId: q.id, optionId, text, seq };
    this.history.set(seq, { questionId: q.id, optionId, text });
    this.latest.set(q.id, a);
    this.pending.set(seq, { ...a, acked: false });
    return a;
  }

  /** A 200 arrived for the request that carried these seqs. */
  markAcked(seqs: number[]): void {
    for (const s of seqs) {
      const p = this.pending.get(s);
      if (p) p.acked = true;
    }
  }

  /**
   * A session body (GET /attempts/:id, start): queued answers it does not hold must be sent
   * again. An answer no 200 ever acknowledged counts as held only when the body lists its
   * very seq: a newer answer to the same question does not show that the server received
   * this one, and a seq it never received holds `durableSeq` back (docs/decisions.md,
   * "durableSeq is a contiguous watermark"). The page sends such a replaced, unacknowledged
   * answer's seq again whatever the server holds (web/candidate/answers.ts, `skipped`);
   * so does this candidate (a stale save: applied 0, its seq settled).
   */
  adoptServer(answers: ServerAnswer[]): void {
    const held = new Map(answers.map((a) => [a.questionId, a.seq]));
    for (const p of this.pending.values()) {
      const h = held.get(p.questionId) ?? 0;
      p.acked = h === p.seq || (p.acked && h > p.seq);
    }
    for (const a of answers) if (a.seq > this.counter) this.counter = a.seq;
  }

  /** Takes in a response's `durableSeq` and `remainingSeconds`; forgets acknowledged, covered answers. */
  acknowledge(body: { durableSeq?: number; remainingSeconds?: number }, at: number): void {
    if (typeof body.durableSeq === 'number') {
      if (body.durableSeq > this.ackDurable) this.ackDurable = body.durableSeq;
      for (const [s, p] of this.pending) {
        if (!p.acked || s > this.ackDurable) continue;
        this.pending.delete(s);
        if (s > (this.trusted.get(p.questionId) ?? 0)) this.trusted.set(p.questionId, s);
      }
      if (body.durableSeq > this.counter) this.counter = body.durableSeq;
    }
    if (typeof body.remainingSeconds === 'number') this.lastClock = { remainingSeconds: body.remainingSeconds, at };
  }

  /**
   * A submit's final copy, as the page sends it (web/candidate/answers.ts `finalCopy`): the
   * newest queued answer of each question, oldest first — at most one per question, so
   * never over the 500 items a submit takes however long `durableSeq` has waited.
   */
  queue(): ServerAnswer[] {
    const newest = new Map<string, PendingAnswer>();
    for (const p of this.pending.values()) if ((newest.get(p.questionId)?.seq ?? 0) < p.seq) newest.set(p.questionId, p);
    return [...newest.values()].sort((a, b) => a.seq - b.seq).map(({ acked: _a, ...a }) => a);
  }

  /** Queued answers the server does not hold (to replay), oldest first. */
  unsent(): ServerAnswer[] {
    return [...this.pending.values()].filter((p) => !p.acked).sort((a, b) => a.seq - b.seq).map(({ acked: _a, ...a }) => a);
  }

  /** Submission acknowledged: the final answers are part of the committed result. */
  completed(): void {
    this.status = 'COMPLETED';
    this.submitAcked = true;
    this.pending.clear();
    for (const [q, a] of this.latest) this.trusted.set(q, a.seq);
  }

  private same(a: Given, b: Given): boolean {
    return a.questionId === b.questionId && a.optionId === b.optionId && a.text === b.text;
  }

  /**
   * Trusted answers missing from `server`: for each question, the latest answer the
   * candidate dropped as durable must be on the server, or a newer answer this candidate
   * gave. @returns `{checked, lost: descriptions}`
   */
  lostDurable(server: ServerAnswer[]): { checked: number; lost: string[] } {
    const byQ = new Map(server.map((a) => [a.questionId, a]));
    const lost: string[] = [];
    for (const [qid, seq] of this.trusted) {
      const s = byQ.get(qid);
      const given = this.history.get(s?.seq ?? -1);
      if (!s || s.seq < seq) lost.push(`${this.attemptId} ${qid}: acknowledged seq ${seq} (durableSeq ${this.ackDurable}) but the server has ${s ? `seq ${s.seq}` : 'nothing'}`);
      else if (!given || !this.same(given, s)) lost.push(`${this.attemptId} ${qid}: the server's seq ${s.seq} is not what this candidate gave under that seq`);
    }
    return { checked: this.trusted.size, lost };
  }

  /** Questions where the server's answer differs from the candidate's latest answer. */
  diverged(server: ServerAnswer[]): string[] {
    const out: string[] = [];
    const byQ = new Map(server.map((a) => [a.questionId, a]));
    for (const [qid, mine] of this.latest) {
      const s = byQ.get(qid);
      if (!s || s.seq !== mine.seq || !this.same(s, mine)) out.push(`${this.attemptId} ${qid}: candidate's latest is seq ${mine.seq}, server has ${s ? `seq ${s.seq}` : 'nothing'}`);
    }
    for (const s of server) if (!this.latest.has(s.questionId)) out.push(`${this.attemptId} ${s.questionId}: server has an answer the candidate never gave`);
    return out;
  }
}
