/**
 * The benchmark's UTME-style paper (`npm run bench -- --paper=utme`, issue 37): the exam is
 * seeded over HTTP with four sections drawing 60/40/40/40 of 75/50/50/50, and an attempt the
 * harness pre-seats directly in the database is, to the real server, the same as one a real
 * start makes: resumed through POST /attempts/start it gives 180 questions in the four
 * sections, each section its draw. Runs the real server (TypeScript sources) as its own process.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeReal } from '../real-papers.js';
import { drawSitting } from '../../src/core/exams/sections.js';
// @ts-expect-error plain ESM script without types
import { parsePlan } from '../../scripts/bench/plan.mjs';
// @ts-expect-error plain ESM script without types
import { startServer } from '../../scripts/bench/server.mjs';
// @ts-expect-error plain ESM script without types
import { prepareDatabase, seedOverHttp } from '../../scripts/bench/seed.mjs';
// @ts-expect-error plain ESM script without types
import { benchPaper } from '../../scripts/bench/fixtures.mjs';

interface Sitting {
  questions: { id: string; section: string }[];
  sections: { name: string; questionIds: string[] }[];
}

async function start(baseUrl: string, body: object): Promise<Sitting> {
  const r = await fetch(`${baseUrl}/attempts/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(r.status, await r.clone().text()).toBeLessThan(300);
  return (await r.json()) as Sitting;
}

const DRAWS = { 'Use of English': 60, Mathematics: 40, Physics: 40, Biology: 40 };

function expectUtmeSitting(s: Sitting) {
  expect(s.questions).toHaveLength(180);
  expect(s.sections.map((x) => x.name)).toEqual(Object.keys(DRAWS));
  for (const x of s.sections) expect(x.questionIds).toHaveLength(DRAWS[x.name as keyof typeof DRAWS]);
}

describe('npm run bench --paper option', () => {
  it('defaults to the flat paper and refuses an unknown one', () => {
    expect(parsePlan(['--smoke']).paper).toBe('flat');
    expect(parsePlan(['--smoke', '--paper=utme']).paper).toBe('utme');
    expect(parsePlan(['--smoke', '--paper=flat180']).paper).toBe('flat180');
    expect(() => parsePlan(['--paper=waec'])).toThrow(/unknown paper --paper=waec/);
  });

  it('takes two papers for one hall, exam runs only', () => {
    expect(parsePlan(['--smoke', '--paper=utme+flat180', '--hall=']).paper).toBe('utme+flat180');
    expect(() => parsePlan(['--paper=utme+flat180'])).toThrow(/exam runs only.*--hall=/);
    expect(() => parsePlan(['--paper=utme+utme', '--hall='])).toThrow(/two different papers/);
    expect(() => parsePlan(['--paper=utme+waec', '--hall='])).toThrow(/unknown paper --paper=utme\+waec/);
  });
});

describeReal('the benchmark UTME paper', () => {
  it('has a same-size flat baseline: 180 questions, no sections, every candidate sits all of them', () => {
    const flat = benchPaper('flat180');
    expect(flat.sections).toBeNull();
    expect(flat.questions).toHaveLength(180);
    expect(flat.perCandidate).toBe(180);
    // the real papers' questions, each once (the UTME paper cycles them to reach 225)
    expect(new Set(flat.questions.map((q: { prompt: string; section: string }) => `${q.section}\n${q.prompt}`)).size).toBe(180);
  });

  it('seeds four sections with draws, and a pre-seated attempt resumes as a real start would give it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-utme-bench-'));
    try {
      let server = await startServer({ dataDir, source: true, probe: false });
      let seed;
      try {
        seed = await seedOverHttp(server.baseUrl, { webhookUrl: 'http://127.0.0.1:9/hook', paper: 'utme' });
      } finally {
        await server.stop();
      }
      expect(seed.questions).toHaveLength(225);
      expect(seed.perCandidate).toBe(180);
      const [seated] = prepareDatabase(dataDir, { ...seed, drawSitting, credits: 100, attempts: 1, studentPrefix: 'H' });
      expect(seated.given).toHaveLength(180);

      server = await startServer({ dataDir, source: true, probe: false });
      try {
        // the pre-seated attempt, resumed with its PIN
        const resumed = await start(server.baseUrl, { accessCode: seed.accessCode, studentId: seated.studentId, candidateName: 'x', candidatePin: seated.pin });
        expectUtmeSitting(resumed);
        expect(new Set(resumed.questions.map((q) => q.id))).toEqual(new Set(seated.given.map((i: number) => seed.questions[i].id)));
        // a real start of a new candidate gives the same shape of paper
        expectUtmeSitting(await start(server.baseUrl, { accessCode: seed.accessCode, studentId: 'NEW001', candidateName: 'New Candidate', candidatePin: '4321' }));
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('seeds two papers in one hall: an exam each in one workspace, the first paper\'s exam the seed\'s own', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hallcbt-mix-bench-'));
    try {
      const server = await startServer({ dataDir, source: true, probe: false });
      try {
        const seed = await seedOverHttp(server.baseUrl, { webhookUrl: 'http://127.0.0.1:9/hook', paper: 'utme+flat180' });
        expect(seed.mix.map((m: { paper: string; perCandidate: number }) => [m.paper, m.perCandidate])).toEqual([['utme', 180], ['flat180', 180]]);
        expect(seed.examId).toBe(seed.mix[0].examId);
        expect(seed.accessCode).toBe(seed.mix[0].accessCode);
        expect(seed.mix[1].accessCode).not.toBe(seed.accessCode);
        expect(seed.questions).toHaveLength(225);
        expect(seed.allQuestions).toHaveLength(405);
        const byId = new Set(seed.allQuestions.map((q: { id: string }) => q.id));
        expect(byId.size).toBe(405);
        // a candidate of each exam gets its own paper, every question among the seed's
        const utme = await start(server.baseUrl, { accessCode: seed.mix[0].accessCode, studentId: 'MIX001', candidateName: 'A', candidatePin: '1234' });
        expectUtmeSitting(utme);
        const flat = await start(server.baseUrl, { accessCode: seed.mix[1].accessCode, studentId: 'MIX002', candidateName: 'B', candidatePin: '1234' });
        expect(flat.questions).toHaveLength(180);
        expect(flat.sections ?? []).toEqual([]);
        for (const q of [...utme.questions, ...flat.questions]) expect(byId.has(q.id)).toBe(true);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
