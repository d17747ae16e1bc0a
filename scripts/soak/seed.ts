/**
 * Seeds the campaign through the public API: exam halls (standalone workspaces, each
 * with 30 free credits, so one hall per 25 candidates) whose webhook URL is the
 * loopback receiver, one long exam per hall (so no attempt times out during the run) of
 * MCQs and short essays, and the candidates, each started with its own student ID and
 * a 4-digit PIN it chose (no roster).
 */
import { VirtualCandidate, type PaperQuestion } from './candidate.js';
import type { JsonClient } from './http.js';

export interface Hall {
  workspaceId: string;
  apiKey: string;
  webhookSecret: string;
  examId: string;
  accessCode: string;
}

export interface Seeded {
  halls: Hall[];
  candidates: VirtualCandidate[];
}

/** Candidates per hall (a standalone workspace starts with 30 credits). */
export const PER_HALL = 25;

function expect201(what: string, r: { status: number; body: unknown }, want = 201): any {
  if (r.status !== want) throw new Error(`seeding: ${what} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

/** The exam's questions: `objective` MCQs with four options and `essays` short essays. */
export function soakQuestions(objective: number, essays: number) {
  const mcq = Array.from({ length: objective }, (_, i) => ({
    prompt: `Soak question ${i + 1}: which is the largest, $x_{${i}}$?`,
    type: 'MCQ',
    marks: 1,
    options: ['one', 'two', 'three', 'four'].map((t, j) => ({ text: `${t} (${i})`, isCorrect: j === i % 4 })),
  }));
  const essay = Array.from({ length: essays }, (_, i) => ({ prompt: `Soak essay ${i + 1}: explain osmosis.`, type: 'SHORT_ESSAY', marks: 5 }));
  return [...mcq, ...essay];
}

/** Starts one candidate; returns its state. @throws unless the server answers 200 */
export async function startCandidate(client: JsonClient, accessCode: string, studentId: string, pin: string): Promise<VirtualCandidate> {
  const body = expect201(
    `start ${studentId}`,
    await client.post('/attempts/start', { accessCode, studentId, candidateName: `Soak ${studentId}`, candidatePin: pin }),
    200,
  ) as { attemptId: string; questions: { id: string; type: string; options: { id: string }[] }[]; durableSeq: number; remainingSeconds: number };
  const paper: PaperQuestion[] = body.questions.map((q) => ({ id: q.id, type: q.type, optionIds: q.options.map((o) => o.id) }));
  const c = new VirtualCandidate(accessCode, studentId, pin, body.attemptId, paper);
  c.acknowledge(body, Date.now());
  return c;
}

/** Registers a hall and creates its exam. */
async function newHall(client: JsonClient, webhookUrl: string, n: number, questions: { objective: number; essays: number }): Promise<Hall> {
  const stamp = `${Date.now().toString(36)}-${n}`;
  const ws = expect201('register', await client.post('/workspaces/standalone', { name: `Soak Hall ${n}`, ownerName: 'Soak Owner', email: `soak-${stamp}@example.com`, webhookUrl }));
  const keyed = client.withKey(ws.apiKey);
  const exam = expect201('create exam', await keyed.post('/exams', { workspaceId: ws.id, title: `Crash campaign ${n}`, durationMins: 600, maxTabViolations: 100 }));
  expect201('bulk questions', await keyed.post('/questions/bulk', { workspaceId: ws.id, examId: exam.id, questions: soakQuestions(questions.objective, questions.essays) }));
  return { workspaceId: ws.id, apiKey: ws.apiKey, webhookSecret: ws.webhookSecret, examId: exam.id, accessCode: exam.accessCode };
}

/** Creates the halls and starts `candidates` candidates spread over them. */
export async function seed(client: JsonClient, webhookUrl: string, candidates: number, questions: { objective: number; essays: number }): Promise<Seeded> {
  const halls: Hall[] = [];
  const list: VirtualCandidate[] = [];
  for (let i = 0; i < candidates; i++) {
    if (i % PER_HALL === 0) halls.push(await newHall(client, webhookUrl, halls.length + 1, questions));
    const id = `SOAK-${String(i + 1).padStart(3, '0')}`;
    list.push(await startCandidate(client, halls[halls.length - 1]!.accessCode, id, String(1000 + ((i * 7919) % 9000))));
  }
  return { halls, candidates: list };
}
