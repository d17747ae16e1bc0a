/**
 * The optional LLM engine against an OpenAI-compatible stub server on 127.0.0.1: the
 * request carries the JSON-schema response format and the key; good output is kept only
 * where the key is supported by the cited passage; malformed JSON, an HTTP error and a
 * time-out fall back to the built-in engines, and `engine` says which ran.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/platform/config.js';
import { createGenerationService } from '../../src/modules/generation/service.js';
import { GENERATION_JOB_MODULE } from '../../src/modules/generation/engine-jobs.js';
import { JobPool } from '../../src/uploads/job-pool.js';

/** The job processes the notes are read, passages chosen and the built-in engine run in (each program builds its own pool). */
const jobs = new JobPool({ jobModules: [GENERATION_JOB_MODULE] });
afterAll(() => jobs.close());

type Mode = 'questions' | 'grade' | 'malformed' | 'http500' | 'slow';
let mode: Mode = 'questions';
let lastRequest: { url: string; auth: string | undefined; body: any } | null = null;
let server: Server;
let baseUrl: string;

const NOTES = [
  'Photosynthesis takes place in the chloroplasts of green leaves.',
  'Chlorophyll is the green pigment that traps light energy from the sun.',
  'Oxygen is released into the air as a by-product of photosynthesis.',
].join('\n\n');

const goodQuestions = {
  questions: [
    { type: 'MCQ', difficulty: 'simple', prompt: 'Which pigment traps light energy?', passages: [2], options: ['Chlorophyll', 'Haemoglobin', 'Melanin', 'Keratin'], answerIndex: 0, answerText: 'Chlorophyll', explanation: 'Passage 2: “Chlorophyll is the green pigment that traps light energy from the sun.”' },
    { type: 'MCQ', difficulty: 'simple', prompt: 'Where is glucose stored?', passages: [1], options: ['In the roots as starch', 'In the chloroplasts', 'In the air', 'In the sun'], answerIndex: 0, answerText: 'In the roots as starch', explanation: 'Not in the material.' },
    { type: 'TRUE_FALSE', difficulty: 'simple', prompt: 'True or false? Oxygen is released as a by-product of photosynthesis.', passages: [3], options: ['True', 'False'], answerIndex: 0, answerText: 'Oxygen is released into the air as a by-product of photosynthesis.', explanation: 'Passage 3.' },
    { type: 'MCQ', difficulty: 'simple', prompt: 'Duplicate options', passages: [1], options: ['chloroplasts', 'Chloroplasts', 'roots', 'stems'], answerIndex: 0, answerText: 'chloroplasts', explanation: 'x' },
  ],
};

function reply(res: import('node:http').ServerResponse, content: string) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    lastRequest = { url: req.url ?? '', auth: req.headers.authorization, body: await readBody(req) };
    if (mode === 'slow') return void setTimeout(() => res.writable && reply(res, JSON.stringify(goodQuestions)), 5_000);
    if (mode === 'http500') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
    if (mode === 'malformed') return reply(res, '{"questions": [ {"type": "MCQ", ');
    if (mode === 'grade') {
      return reply(res, JSON.stringify({ criteriaScores: [{ criterionId: 'c1', score: 1.7, feedback: 'Names chlorophyll.' }, { criterionId: 'c2', score: 9, feedback: 'Light energy named.' }], overallComment: 'Good.', strengths: ['Accurate'], areasForImprovement: [] }));
    }
    return reply(res, JSON.stringify(goodQuestions));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

// Generous time-out (the machine may be busy with other tests); the time-out case uses a short one.
const service = (llmTimeoutMs = 15_000) =>
  createGenerationService({ config: testConfig({ CBT_LLM_BASE_URL: baseUrl, CBT_LLM_MODEL: 'stub-llama-3', CBT_LLM_API_KEY: 'sk-test' }), llmTimeoutMs, jobs });
const generate = (llmTimeoutMs?: number) => service(llmTimeoutMs).generate({ material: { notes: NOTES }, difficulty: 'simple', count: 3 });

const gradeRequest = {
  questionPrompt: 'Explain the role of chlorophyll.',
  studentResponse: 'Chlorophyll traps light energy from the sun for photosynthesis.',
  modelAnswer: 'Chlorophyll is the green pigment that traps light energy from the sun.',
  rubricCriteria: [
    { id: 'c1', title: 'Pigment', maxMarks: 2 },
    { id: 'c2', title: 'Light energy', maxMarks: 2 },
  ],
  maxMarks: 4,
};

describe('LLM engine (OpenAI-compatible stub on loopback)', () => {
  it('uses the model and keeps only questions supported by the cited passage', async () => {
    mode = 'questions';
    const r = await generate();
    expect(lastRequest!.url).toBe('/v1/chat/completions');
    expect(lastRequest!.auth).toBe('Bearer sk-test');
    expect(lastRequest!.body.model).toBe('stub-llama-3');
    expect(lastRequest!.body.response_format.type).toBe('json_schema');
    expect(lastRequest!.body.response_format.json_schema.schema.properties.questions.type).toBe('array');
    expect(lastRequest!.body.messages[1].content).toContain('[2] (paragraph 2)');
    expect(r.engine).toBe('stub-llama-3');
    expect(r.questions.map((q) => q.type)).toEqual(['MCQ', 'TRUE_FALSE']);
    expect(r.totalGenerated).toBe(2);
    expect(r.questions[0]!.citation).toBe('paragraph 2');
    expect(r.questions[0]!.options.find((o) => o.isCorrect)!.text).toBe('Chlorophyll');
    expect(r.questions[0]!.id).toMatch(/^q_[0-9a-f]{12}$/);
    expect(r.warnings.join(' ')).toMatch(/2 question\(s\) from stub-llama-3 were dropped/);
  });

  it.each([
    ['malformed JSON', 'malformed' as Mode, /malformed JSON/],
    ['an HTTP error', 'http500' as Mode, /HTTP 500/],
    ['a time-out', 'slow' as Mode, /no answer within/],
  ])('falls back to the built-in engine on %s', async (_name, m, why) => {
    mode = m;
    const r = await generate(m === 'slow' ? 500 : undefined);
    expect(r.engine).toBe('hallcbt-extractive-1');
    expect(r.questions.length).toBeGreaterThan(0);
    expect(r.warnings.join(' ')).toMatch(why);
    expect(r.warnings.join(' ')).toMatch(/built-in engine was used instead/);
  });

  it('grades with the model, clamping scores to half marks within each maximum', async () => {
    mode = 'grade';
    const r = await service().grade(gradeRequest);
    expect(r.engine).toBe('stub-llama-3');
    expect(r.evaluation.criteriaScores).toEqual([
      { criterionId: 'c1', score: 1.5, maxMarks: 2, feedback: 'Names chlorophyll.' },
      { criterionId: 'c2', score: 2, maxMarks: 2, feedback: 'Light energy named.' },
    ]);
    expect(r.evaluation.totalScore).toBe(3.5);
    expect(lastRequest!.body.response_format.json_schema.name).toBe('essay_evaluation');
  });

  it('falls back to the built-in grader when the model fails', async () => {
    mode = 'malformed';
    const r = await service().grade(gradeRequest);
    expect(r.engine).toBe('hallcbt-rubric-1');
    expect(r.evaluation.overallComment).toMatch(/built-in engine was used instead/);
    mode = 'questions'; // answers with questions JSON: wrong schema for grading
    expect((await service().grade(gradeRequest)).engine).toBe('hallcbt-rubric-1');
  });
});
