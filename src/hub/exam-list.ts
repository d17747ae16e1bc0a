/**
 * The list of a hub's exams for the board's page (docs/hub.md, "The board's page"): each
 * exam's title, times, version, question and candidate counts, and the halls it was
 * published to, newest first. Question bodies and PINs stay in GET /hub/v1/exams/{id}.
 */
import { desc, sql } from 'drizzle-orm';
import type { HubDeps } from './deps.js';
import { hubExams, publications } from './db/schema.js';

/** One row of the list. */
export interface HubExamSummary {
  id: string;
  title: string;
  startsAt: string;
  durationMins: number;
  version: number;
  questions: number;
  candidates: number;
  publishedVersion: number | null;
  hallIds: string[];
  createdAt: string;
}

/** Every exam of the hub, newest first. */
export async function listHubExams(deps: HubDeps): Promise<HubExamSummary[]> {
  const rows = await deps.db
    .select({
      id: hubExams.id,
      title: hubExams.title,
      startsAt: hubExams.startsAt,
      durationMins: hubExams.durationMins,
      version: hubExams.version,
      questions: sql<number>`jsonb_array_length(${hubExams.questions})::int`,
      candidates: sql<number>`jsonb_array_length(${hubExams.roster})::int`,
      createdAt: hubExams.createdAt,
    })
    .from(hubExams)
    .orderBy(desc(hubExams.createdAt));
  const pubs = await deps.db
    .select({ examId: publications.examId, version: sql<number>`max(${publications.version})::int`, hallIds: sql<string[]>`array_agg(distinct ${publications.hallId})` })
    .from(publications)
    .groupBy(publications.examId);
  const byExam = new Map(pubs.map((p) => [p.examId, p]));
  return rows.map((r) => ({
    ...r,
    startsAt: r.startsAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    publishedVersion: byExam.get(r.id)?.version ?? null,
    hallIds: byExam.get(r.id)?.hallIds ?? [],
  }));
}
