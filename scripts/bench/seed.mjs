/**
 * Seeding the server under test.
 *
 * 1. Over HTTP (the public API, as an examiner would): register a standalone workspace
 *    whose webhookUrl is the harness's loopback receiver, create a published exam
 *    (180 min, shuffled questions and choices, no roster, maxTabViolations 100 so the
 *    occasional WINDOW_BLUR telemetry never disqualifies), bulk-load the paper's real
 *    questions (fixtures.mjs `benchPaper`: 60 or 180 flat, or the UTME paper's 225 with the
 *    exam's four sections; that exam is created unpublished and published once loaded,
 *    as docs/api-overview.md has it: publishing checks every draw fits).
 * 2. With the server stopped, directly in its SQLite file (better-sqlite3): set the
 *    workspace's credits (a workspace starts with 30; every new attempt costs one) and,
 *    for the scenarios that need a hall already sitting, insert attempts IN_PROGRESS
 *    exactly as POST /attempts/start would (layout in question order, PIN hash in the
 *    server's format) — the steady-hall scenarios need a hall already sitting, and the
 *    start path is measured by its own scenario. In a sectioned exam each such attempt
 *    gets what a start writes (src/modules/attempts/start.ts): a random 32-bit draw_seed
 *    and the layout of the questions drawn from it by the server's own code
 *    (`drawSitting` of src/core/exams/sections.ts, compiled; passed in by setup.mjs),
 *    section after section, each entry naming its section (src/modules/sessions/paper.ts
 *    `Layout`).
 */
import Database from 'better-sqlite3';
import { createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchPaper } from './fixtures.mjs';

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** `n` random base62 characters (ids in the server's `att_…` shape). */
export function base62(n) {
  let s = '';
  for (const b of randomBytes(n * 2)) if (b < 248 && s.length < n) s += B62[b % 62];
  return s.length === n ? s : s + base62(n - s.length);
}

async function call(baseUrl, method, path, body, apiKey) {
  const headers = { 'content-type': 'application/json' };
  if (apiKey) headers['x-api-key'] = apiKey;
  const r = await fetch(baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await r.json().catch(() => null);
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(json).slice(0, 500)}`);
  return json;
}

/**
 * Registers a workspace, creates the exam and loads the paper. A mixed paper (`utme+flat180`,
 * plan.mjs `--paper=A+B`) gets one exam per paper in the same workspace: the first paper's
 * exam is the seed's own (its `examId`, `accessCode`, `questions`, …, as for that paper alone),
 * and `mix` lists both exams, so a run's candidates can alternate between them and both papers'
 * starts share one surge (the same machine, disk and minute: scenarios.mjs `examRun`).
 * @param {{webhookUrl: string, paper?: string}} o  paper: 'flat' | 'flat180' | 'utme' | 'A+B'
 * @returns {{workspaceId, apiKey, webhookSecret, examId, accessCode, paper: string,
 *   sections: {name, draw, compulsory}[] | null, perCandidate: number,
 *   questions: {id, optionIds: string[], correct: string, section: string | null}[],
 *   mix: {paper, examId, accessCode, perCandidate}[] | null, allQuestions: object[]}}
 *   perCandidate: the questions each candidate is given (all of them on the flat paper);
 *   allQuestions: every exam's questions (the first paper's first), for answering
 */
export async function seedOverHttp(baseUrl, { webhookUrl, paper = 'flat' }) {
  const ws = await call(baseUrl, 'POST', '/workspaces/standalone', {
    name: 'Benchmark hall',
    ownerName: 'Bench Owner',
    email: `bench.${Date.now()}.${base62(6)}@example.com`,
    webhookUrl,
  });
  const exams = [];
  for (const name of paper.split('+')) exams.push(await createExam(baseUrl, ws, benchPaper(name)));
  const [first] = exams;
  return {
    workspaceId: ws.id,
    apiKey: ws.apiKey,
    webhookSecret: ws.webhookSecret,
    ...first,
    mix: exams.length > 1 ? exams.map((e) => ({ paper: e.paper, examId: e.examId, accessCode: e.accessCode, perCandidate: e.perCandidate })) : null,
    allQuestions: exams.flatMap((e) => e.questions),
  };
}

/** Creates paper `p`'s exam in workspace `ws`, loads its questions and publishes it. */
async function createExam(baseUrl, ws, p) {
  const settings = { durationMins: 180, maxTabViolations: 100, shuffleQuestions: true, shuffleChoices: true, showResultAfter: true };
  const exam = await call(
    baseUrl,
    'POST',
    '/exams',
    p.sections
      ? { workspaceId: ws.id, title: 'Mock UTME paper (benchmark)', ...settings, sections: p.sections, isPublished: false }
      : { workspaceId: ws.id, title: `Mock WAEC/NECO paper, ${p.questions.length} questions (benchmark)`, ...settings, isPublished: true },
    ws.apiKey,
  );
  const bulk = await call(baseUrl, 'POST', '/questions/bulk', { workspaceId: ws.id, examId: exam.id, questions: p.questions }, ws.apiKey);
  if (p.sections) await call(baseUrl, 'PATCH', `/exams/${exam.id}`, { isPublished: true }, ws.apiKey);
  return {
    examId: exam.id,
    accessCode: exam.accessCode,
    paper: p.name,
    sections: p.sections,
    perCandidate: p.perCandidate,
    questions: bulk.questions.map((q) => ({ id: q.id, optionIds: q.options.map((o) => o.id), correct: q.options.find((o) => o.isCorrect)?.id ?? null, section: q.section ?? null })),
  };
}

/**
 * The server's PIN hash (`hmac1$…`, src/platform/crypto.ts SecretBox.pinHash): HMAC-SHA-256
 * of `<examId>\n<studentId>\n<pin>` under the HKDF subkey of the installation key.
 */
export function pinHash(installationKey, examId, studentId, pin) {
  const key = Buffer.from(hkdfSync('sha256', installationKey, Buffer.alloc(0), 'hallcbt candidate pin v1', 32));
  return `hmac1$${createHmac('sha256', key).update(`${examId}\n${studentId}\n${pin.normalize('NFKC')}`, 'utf8').digest('base64')}`;
}

/**
 * Edits the stopped server's database: sets credits and inserts `attempts` sitting candidates.
 * @param {string} dataDir
 * @param {{workspaceId, examId, questions, sections, credits: number, attempts: number, studentPrefix: string,
 *   drawSitting?: Function}} o  drawSitting: the server's (src/core/exams/sections.ts), required when `sections` is set
 * @returns {{attemptId: string, studentId: string, pin: string, given: number[]}[]} the inserted attempts;
 *   given: the indexes in `questions` of the questions the attempt was given, in layout order
 *   (null without sections: all of them)
 */
export function prepareDatabase(dataDir, o) {
  const db = new Database(join(dataDir, 'hallcbt.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE workspaces SET credits = ? WHERE id = ?').run(o.credits, o.workspaceId);
    const index = new Map(o.questions.map((q, i) => [q.id, i]));
    const flatLayout = JSON.stringify(o.questions.map((q) => ({ questionId: q.id, optionIds: q.optionIds })));
    // a sectioned exam: the attempt's seed and the layout a start would write (questions in paper order, options as stored)
    const sitting = () => {
      if (!o.sections) return { seed: null, layout: flatLayout, given: null };
      const seed = randomInt(0x1_0000_0000);
      const drawn = o.drawSitting(o.sections, o.questions, null, seed);
      const entries = drawn.flatMap((s) => s.questionIds.map((id) => ({ questionId: id, optionIds: o.questions[index.get(id)].optionIds, section: s.name })));
      return { seed, layout: JSON.stringify(entries), given: entries.map((e) => index.get(e.questionId)) };
    };
    const pin = '1234';
    const installationKey = readFileSync(join(dataDir, 'secret.key'));
    const now = Date.now();
    // the layout is inline (layout_json column, before migration 0002) or in attempt_layouts
    const columns = new Set(db.prepare('PRAGMA table_info(attempts)').all().map((c) => c.name));
    const inline = columns.has('layout_json');
    if (o.sections && !columns.has('draw_seed')) throw new Error('this server has no attempts.draw_seed: it cannot hold a sectioned exam');
    const seedCol = columns.has('draw_seed');
    const row = db.prepare(
      `INSERT INTO attempts (id, exam_id, workspace_id, student_id, candidate_name, pin_hash, status, started_at, credited_ms, extra_seconds, violations, ${inline ? 'layout_json, ' : ''}client_address, last_seen_at${seedCol ? ', draw_seed' : ''})
       VALUES (?,?,?,?,?,?,'IN_PROGRESS',?,0,0,0,${inline ? '?,' : ''}'127.0.0.1',?${seedCol ? ',?' : ''})`,
    );
    const side = inline ? null : db.prepare('INSERT INTO attempt_layouts (attempt_id, layout_json) VALUES (?, ?)');
    const insert = (id, studentId, hash, s) => {
      const tail = seedCol ? [now, s.seed] : [now];
      if (inline) row.run(id, o.examId, o.workspaceId, studentId, `Candidate ${studentId}`, hash, now, s.layout, ...tail);
      else {
        row.run(id, o.examId, o.workspaceId, studentId, `Candidate ${studentId}`, hash, now, ...tail);
        side.run(id, s.layout);
      }
    };
    const out = [];
    db.transaction(() => {
      for (let i = 0; i < o.attempts; i++) {
        const attemptId = `att_${base62(22)}`;
        const studentId = `${o.studentPrefix}${String(i + 1).padStart(5, '0')}`;
        const s = sitting();
        insert(attemptId, studentId, pinHash(installationKey, o.examId, studentId, pin), s);
        out.push({ attemptId, studentId, pin, given: s.given });
      }
    })();
    return out;
  } finally {
    db.close();
  }
}

/**
 * EXPLAIN QUERY PLAN of the hot statements, read from a stopped server's database. (The
 * flush's answer upsert, INSERT … ON CONFLICT, has no plan rows; it uses the primary key.)
 */
export function queryPlans(dataDir) {
  const db = new Database(join(dataDir, 'hallcbt.sqlite'));
  try {
    const plans = {
      'flush: durable_seq watermark per attempt': "UPDATE attempts SET durable_seq = 1 WHERE id = 'a' AND durable_seq < 1",
      'flush: activity (last seen/saved) per attempt': "UPDATE attempts SET last_seen_at = 1, last_saved_at = 1 WHERE id = 'a'",
      'answer read (buffer miss)': "SELECT option_id, text, seq FROM answers WHERE attempt_id = 'a' AND question_id = 'q'",
      'max seq of an attempt': "SELECT coalesce(max(seq), 0) FROM answers WHERE attempt_id = 'a'",
      'start: exam by room code': "SELECT id FROM exams WHERE access_code = 'X'",
      'start: attempt by exam+student': "SELECT id, pin_hash, status FROM attempts WHERE exam_id = 'e' AND student_id = 's'",
      'grading: answers of an attempt': "SELECT question_id, option_id FROM answers WHERE attempt_id = 'a'",
      'expiry sweep (every 2 s)': "SELECT a.id FROM attempts a JOIN exams e ON e.id = a.exam_id WHERE a.status = 'IN_PROGRESS' AND e.paused_at IS NULL AND (a.started_at + a.credited_ms + (e.duration_mins * 60 + a.extra_seconds) * 1000 + 30000 <= 1 OR (e.ends_at IS NOT NULL AND e.ends_at + 30000 <= 1))",
      'outbox due rows': "SELECT id FROM outbox_events WHERE status = 'PENDING' AND next_attempt_at <= 1 ORDER BY next_attempt_at LIMIT 200",
      'health: outbox pending count': "SELECT count(*) FROM outbox_events WHERE status = 'PENDING'",
    };
    const out = {};
    for (const [name, sql] of Object.entries(plans)) {
      out[name] = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all().map((r) => r.detail).join('; ');
    }
    return out;
  } finally {
    db.close();
  }
}
