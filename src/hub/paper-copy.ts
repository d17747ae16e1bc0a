/**
 * The hub's own copy of the paper a hall holds (docs/hub.md, "Trust model"): the hub sealed
 * every package and keeps each one's envelope and release code, so it opens the package
 * exactly as the hall did (release code → content key → paper, src/core/sync/seal.ts) and
 * grades, checks the roster and the time window against that — the version the hall was
 * given, not the exam as edited since. A package never changes once sealed, so the opened
 * paper is kept in a small LRU per process (nothing another process needs).
 */
import { LRUCache } from 'lru-cache';
import { openPaper, unwrapContentKey } from '../core/sync/seal.js';
import { parseReleaseCode } from '../core/sync/release-code.js';
import { packagePayloadSchema, paperSchema, type Paper } from '../core/sync/messages.js';
import type { GradablePaper, PaperQuestion } from '../core/grading/paper.js';
import type { SecretBox } from '../platform/crypto.js';
import type { ExamSection } from '../core/exams/sections.js';

/** What the hub checks a result against: the package's gradable paper, roster and window. */
export interface HubPaperCopy {
  packageId: string;
  gradable: GradablePaper;
  /** studentId → candidate name, from the package's roster */
  roster: Map<string, string>;
  /** the paper's sections in order (absent or []: none; a v2 paper's) */
  sections?: ExamSection[];
  /** studentId → the subjects the roster lists for the candidate (absent: none listed) */
  subjects?: Map<string, string[]>;
  /** epoch ms */
  startsAt: number;
  /** epoch ms, or null for a paper without an end */
  endsAt: number | null;
  durationMins: number;
}

/** The stored parts of a publication this needs (publications row). */
export interface PublicationSecrets {
  packageId: string;
  hallId: string;
  examId: string;
  envelope: string;
  releaseCodeSealed: string;
}

const cache = new LRUCache<string, HubPaperCopy>({ max: 256 });

/** The grading view of a sealed paper's questions (the hall builds the same from its rows). */
export function gradablePaper(paper: Paper): GradablePaper {
  const questions = paper.questions.map(
    (q): PaperQuestion => ({
      id: q.id,
      type: q.type,
      prompt: q.prompt,
      marks: q.marks,
      section: q.section,
      minWords: q.minWords,
      maxWords: q.maxWords,
      options: q.options,
      optionsById: new Map(q.options.map((o) => [o.id, o])),
      rubric: q.rubric,
      modelAnswer: q.modelAnswer,
    }),
  );
  return { questions, byId: new Map(questions.map((q) => [q.id, q])), maxScore: questions.reduce((s, q) => s + q.marks, 0) };
}

/**
 * Opens the publication's package with its own release code (cached per package id).
 * @throws Error when the stored envelope or code does not open (the hub's own data is damaged)
 */
export function hubPaperCopy(secrets: SecretBox, pub: PublicationSecrets): HubPaperCopy {
  const hit = cache.get(pub.packageId);
  if (hit) return hit;
  const envelope = JSON.parse(pub.envelope) as { payload: string };
  const payload = packagePayloadSchema.parse(JSON.parse(envelope.payload));
  const code = parseReleaseCode(secrets.open(pub.releaseCodeSealed));
  if (!code.ok) throw new Error(`stored release code of ${pub.packageId} does not parse`);
  const key = unwrapContentKey(payload.wrappedKey, code.code, pub.hallId, pub.examId);
  if (!key) throw new Error(`stored release code does not open ${pub.packageId}`);
  const paper = paperSchema.parse(openPaper(key, payload.sealed, payload));
  const copy: HubPaperCopy = {
    packageId: pub.packageId,
    gradable: gradablePaper(paper),
    roster: new Map(paper.roster.map((r) => [r.studentId, r.candidateName])),
    sections: paper.sections ?? [],
    subjects: new Map(paper.roster.flatMap((r) => (r.subjects?.length ? [[r.studentId, r.subjects] as [string, string[]]] : []))),
    startsAt: Date.parse(paper.startsAt),
    endsAt: paper.endsAt === null ? null : Date.parse(paper.endsAt),
    durationMins: paper.durationMins,
  };
  cache.set(pub.packageId, copy);
  return copy;
}
