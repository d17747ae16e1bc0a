/**
 * Questions → a QTI 3.0 content package (docs/decisions.md, "QTI 3.0 content packages"):
 * `imsmanifest.xml`, `assessment-test.xml` (one test part; consecutive questions of one
 * section form a `qti-assessment-section` titled with it, questions without a section an
 * invisible one) and `items/Qnnn.xml`, one item per question:
 * - MCQ and TRUE_FALSE → a choice interaction (max-choices 1), the key as the correct
 *   response, choice identifiers the key labels;
 * - SHORT_ESSAY / LONG_ESSAY → an extended-text interaction (expected-lines 5 / 15, the word
 *   bounds as `data-min-words`/`data-max-words`), the rubric and the model answer in
 *   rubric blocks for the scorer, SCORE human-scored;
 * - marks → MAXSCORE's default value (SCORE is set to it on a correct choice); the
 *   explanation → a rubric block for the tutor.
 * Markdown becomes XHTML through marked, maths MathML carrying its TeX in an
 * `application/x-tex` annotation (KaTeX), so the reader gets the same LaTeX back. Pure:
 * returns the files by path; the caller zips them.
 */
import katex from 'katex';
import { Marked } from 'marked';
import type { ImportedQuestion } from '../types.js';
import { escapeXml, wellFormed } from './xml.js';

const ITEM_NS = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const SCHEMA = `xmlns="${ITEM_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${ITEM_NS} https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd"`;
const marked = new Marked({ gfm: true, breaks: true, async: false });
const MATH = /\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$/g;
const VOID = /<(br|hr|img|col|wbr)(\s[^<>]*?)?\s*\/?>/gi;

/** One formula as MathML with its TeX annotation. */
function mathml(tex: string, display: boolean): string {
  const html = katex.renderToString(tex, { displayMode: display, output: 'mathml', throwOnError: false, trust: false, strict: 'ignore', maxExpand: 200, maxSize: 20 });
  const m = /<math[\s\S]*<\/math>/.exec(html);
  return m ? m[0] : escapeXml(tex);
}

/**
 * Markdown (with `$…$` maths) → an XHTML fragment; when the result is not well-formed XML
 * (hand-written HTML in the text), the text itself in one paragraph.
 * @param inline no wrapping paragraph (choice texts)
 */
export function xhtmlOf(markdown: string, inline = false): string {
  const maths: string[] = [];
  const src = markdown.replace(MATH, (_m, display: string | undefined, inl: string | undefined) => {
    maths.push(display !== undefined ? mathml(display.trim(), true) : mathml(String(inl).trim(), false));
    return `\u0000M${maths.length - 1}\u0000`;
  });
  let html = (inline ? marked.parseInline(src) : marked.parse(src)) as string;
  html = html
    .replace(/\u0000M(\d+)\u0000/g, (_m, i: string) => maths[Number(i)] ?? '')
    .replace(VOID, (_m, tag: string, attrs: string | undefined) => `<${tag.toLowerCase()}${attrs ?? ''}/>`)
    .trim();
  if (wellFormed(html)) return html;
  return inline ? escapeXml(markdown) : `<p>${escapeXml(markdown)}</p>`;
}

const num = (n: number) => String(Number(n.toFixed(6)));
/** A QTI identifier for a key label (letters, digits, _ . -; not starting with a digit). */
const choiceId = (label: string | undefined, i: number) => (label && /^[A-Za-z_][\w.-]*$/.test(label) ? label : `CHOICE_${i + 1}`);

function rubricBlock(view: string, use: string, inner: string): string {
  return `    <qti-rubric-block view="${view}" use="${use}">\n      <qti-content-body>${inner}</qti-content-body>\n    </qti-rubric-block>\n`;
}

/** One question as a `qti-assessment-item`. */
export function itemXml(q: ImportedQuestion, identifier: string): string {
  const title = escapeXml(q.prompt.replace(/[$*_`#>\\]/g, '').replace(/\s+/g, ' ').trim().slice(0, 80) || identifier);
  const objective = q.type === 'MCQ' || q.type === 'TRUE_FALSE';
  const opts = q.options ?? [];
  const ids = opts.map((o, i) => choiceId(o.keyLabel, i));
  const uniqueIds = new Set(ids).size === ids.length ? ids : opts.map((_o, i) => `CHOICE_${i + 1}`);
  const key = uniqueIds[opts.findIndex((o) => o.isCorrect)] ?? '';
  const out: string[] = [`<?xml version="1.0" encoding="UTF-8"?>\n<qti-assessment-item ${SCHEMA} identifier="${identifier}" title="${title}" adaptive="false" time-dependent="false">\n`];
  out.push(objective
    ? `  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">\n    <qti-correct-response><qti-value>${key}</qti-value></qti-correct-response>\n  </qti-response-declaration>\n`
    : '  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>\n');
  out.push(`  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"${objective ? '' : ` external-scored="human" normal-maximum="${num(q.marks)}"`}>\n    <qti-default-value><qti-value>0</qti-value></qti-default-value>\n  </qti-outcome-declaration>\n`);
  out.push(`  <qti-outcome-declaration identifier="MAXSCORE" cardinality="single" base-type="float">\n    <qti-default-value><qti-value>${num(q.marks)}</qti-value></qti-default-value>\n  </qti-outcome-declaration>\n`);
  out.push(`  <qti-item-body>\n    <div>${xhtmlOf(q.prompt)}</div>\n`);
  if (objective) {
    out.push('    <qti-choice-interaction response-identifier="RESPONSE" shuffle="false" max-choices="1" min-choices="1">\n');
    opts.forEach((o, i) => out.push(`      <qti-simple-choice identifier="${uniqueIds[i]}">${xhtmlOf(o.text, true)}</qti-simple-choice>\n`));
    out.push('    </qti-choice-interaction>\n');
  } else {
    const words = `${q.minWords != null ? ` data-min-words="${q.minWords}"` : ''}${q.maxWords != null ? ` data-max-words="${q.maxWords}"` : ''}`;
    out.push(`    <qti-extended-text-interaction response-identifier="RESPONSE" format="plain" expected-lines="${q.type === 'SHORT_ESSAY' ? 5 : 15}"${words}/>\n`);
    if (q.rubric) {
      const items = q.rubric.criteria.map((c) => `<li><strong>${escapeXml(c.title)}</strong> (${num(c.maxMarks)} marks)${c.description ? `: ${escapeXml(c.description)}` : ''}</li>`).join('');
      out.push(rubricBlock('scorer', 'scoring', `<p><strong>Rubric: ${escapeXml(q.rubric.name)}</strong></p><ul>${items}</ul>`));
    }
    if (q.modelAnswer) out.push(rubricBlock('scorer', 'model-answer', `<p><strong>Model answer</strong></p>${xhtmlOf(q.modelAnswer)}`));
  }
  if (q.explanation) out.push(rubricBlock('tutor', 'explanation', xhtmlOf(q.explanation)));
  out.push('  </qti-item-body>\n');
  if (objective) {
    out.push('  <qti-response-processing>\n    <qti-response-condition>\n      <qti-response-if>\n        <qti-match><qti-variable identifier="RESPONSE"/><qti-correct identifier="RESPONSE"/></qti-match>\n        <qti-set-outcome-value identifier="SCORE"><qti-variable identifier="MAXSCORE"/></qti-set-outcome-value>\n      </qti-response-if>\n    </qti-response-condition>\n  </qti-response-processing>\n');
  }
  out.push('</qti-assessment-item>\n');
  return out.join('');
}

/**
 * The package's files for questions in exam order.
 * @param title the test's title (the exam's)
 * @returns file path → XML text
 */
export function qtiPackageFiles(questions: ImportedQuestion[], title: string): Map<string, string> {
  const files = new Map<string, string>();
  const ids = questions.map((_q, i) => `Q${String(i + 1).padStart(3, '0')}`);
  questions.forEach((q, i) => files.set(`items/${ids[i]}.xml`, itemXml(q, ids[i]!)));
  const sections: { title?: string; refs: string[] }[] = [];
  questions.forEach((q, i) => {
    const last = sections.at(-1);
    if (last && last.title === (q.section || undefined)) last.refs.push(ids[i]!);
    else sections.push({ title: q.section || undefined, refs: [ids[i]!] });
  });
  const sectionXml = sections
    .map((s, i) => `    <qti-assessment-section identifier="S${i + 1}" title="${escapeXml(s.title ?? 'Questions')}" visible="${s.title ? 'true' : 'false'}">\n${s.refs.map((id) => `      <qti-assessment-item-ref identifier="${id}" href="items/${id}.xml"/>\n`).join('')}    </qti-assessment-section>\n`)
    .join('');
  files.set('assessment-test.xml', `<?xml version="1.0" encoding="UTF-8"?>\n<qti-assessment-test ${SCHEMA} identifier="TEST" title="${escapeXml(title)}">\n  <qti-test-part identifier="PART1" navigation-mode="nonlinear" submission-mode="simultaneous">\n${sectionXml}  </qti-test-part>\n</qti-assessment-test>\n`);
  const resources = [
    `    <resource identifier="TEST" type="imsqti_test_xmlv3p0" href="assessment-test.xml">\n      <file href="assessment-test.xml"/>\n${ids.map((id) => `      <dependency identifierref="${id}"/>\n`).join('')}    </resource>\n`,
    ...ids.map((id) => `    <resource identifier="${id}" type="imsqti_item_xmlv3p0" href="items/${id}.xml">\n      <file href="items/${id}.xml"/>\n    </resource>\n`),
  ];
  files.set('imsmanifest.xml', `<?xml version="1.0" encoding="UTF-8"?>\n<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="HALLCBT-EXPORT">\n  <metadata>\n    <schema>QTI Package</schema>\n    <schemaversion>3.0.0</schemaversion>\n  </metadata>\n  <organizations/>\n  <resources>\n${resources.join('')}  </resources>\n</manifest>\n`);
  return files;
}
