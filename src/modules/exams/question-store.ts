/**
 * The one way a question row is written (issue 35 §6): bulk entry and imports
 * (questions/service.ts), a duplicated exam (service.ts) and a released hub paper
 * (hub-link/packages.ts) all insert through `insertQuestion`. It lives with the exams,
 * which own their questions, so the questions module depends on the exams module and
 * never the other way round (no cycle through the modules' doors). The statement comes from the
 * connection's statement cache (src/db/index.ts), so it is compiled once.
 */
import type { Sqlite } from '../../db/index.js';
import type { QuestionRow } from '../../db/rows.js';

const INSERT_QUESTION = `INSERT INTO questions (id, exam_id, workspace_id, position, type, prompt, marks, options_json, explanation, section, min_words, max_words, model_answer, rubric_json, difficulty, citation, created_at, updated_at)
  VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`;

/**
 * Inserts one question row exactly as given (ids, JSON columns and epoch-ms times already
 * made by the caller). Call inside the caller's transaction when several go together.
 * @throws SqliteError on a broken constraint (duplicate id, unknown exam)
 */
export function insertQuestion(sqlite: Sqlite, q: QuestionRow): void {
  sqlite
    .prepare(INSERT_QUESTION)
    .run(q.id, q.exam_id, q.workspace_id, q.position, q.type, q.prompt, q.marks, q.options_json, q.explanation, q.section, q.min_words, q.max_words, q.model_answer, q.rubric_json, q.difficulty, q.citation, q.created_at, q.updated_at);
}
