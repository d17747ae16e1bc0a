/**
 * One QTI 3.0 `qti-assessment-item` → one HallCBT question (docs/decisions.md, "QTI 3.0
 * content packages"):
 * - a choice interaction with one correct response → MCQ, or TRUE_FALSE when its two
 *   choices read True and False; a multiple-response one (cardinality multiple or
 *   max-choices ≠ 1) → MCQ only when it has exactly one correct choice (with a warning),
 *   otherwise it is not imported and the reason names the item;
 * - an extended-text interaction → SHORT_ESSAY (expected-lines ≤ 5) or LONG_ESSAY, with
 *   `data-min-words`/`data-max-words` as word bounds; scorer rubric blocks → rubric criteria
 *   ("**Title** (3 marks): description" or "[3] criterion" lines) or the model answer;
 * - marks: MAXSCORE's default value, else SCORE's normal-maximum, else the mapped value of
 *   the correct choice, else 1; tutor rubric blocks and feedback → explanation; candidate
 *   rubric blocks stay in the prompt; the interaction's qti-prompt is part of the prompt.
 * Every other interaction, or more than one, is not imported, with the reason.
 */
import { ESSAY_WORDS, type ImportedOption, type ImportedQuestion, type ImportedRubric } from '../types.js';
import { UnreadableMath } from './mathml-tex.js';
import { blocks, markdownOf } from './xhtml-markdown.js';
import { child, childElements, findElements, isElement, textContent, type XmlElement, type XmlNode } from './xml.js';

/** A question read from an item, with warnings about what was changed or dropped. */
export interface ItemRead {
  question: ImportedQuestion;
  warnings: string[];
}

interface ResponseDeclaration {
  cardinality: string;
  correct: string[];
  mapping: Map<string, number>;
}

const numberOf = (s: string | undefined): number | undefined => {
  const n = Number((s ?? '').trim());
  return s !== undefined && s.trim() !== '' && Number.isFinite(n) ? n : undefined;
};
const values = (e: XmlElement | undefined): string[] => (e ? childElements(e, 'qti-value').map((v) => textContent(v).trim()) : []);

function declarations(root: XmlElement): Map<string, ResponseDeclaration> {
  const out = new Map<string, ResponseDeclaration>();
  for (const d of childElements(root, 'qti-response-declaration')) {
    const mapping = new Map<string, number>();
    for (const m of childElements(child(d, 'qti-mapping') ?? d, 'qti-map-entry')) mapping.set(m.attrs['map-key'] ?? '', Number(m.attrs['mapped-value'] ?? 0));
    out.set(d.attrs.identifier ?? '', { cardinality: d.attrs.cardinality ?? 'single', correct: values(child(d, 'qti-correct-response')), mapping });
  }
  return out;
}

function maxScore(root: XmlElement): number | undefined {
  const outcomes = childElements(root, 'qti-outcome-declaration');
  const max = outcomes.find((o) => o.attrs.identifier === 'MAXSCORE');
  const fromMax = numberOf(values(max && child(max, 'qti-default-value'))[0]);
  if (fromMax !== undefined && fromMax > 0) return fromMax;
  const score = numberOf(outcomes.find((o) => o.attrs.identifier === 'SCORE')?.attrs['normal-maximum']);
  return score !== undefined && score > 0 ? score : undefined;
}

const views = (e: XmlElement): string[] => (e.attrs.view ?? 'candidate').split(/\s+/).filter(Boolean);
const contentOf = (e: XmlElement): XmlNode[] => child(e, 'qti-content-body')?.children ?? e.children;

/** The body with the interaction replaced by its prompt, and rubric/feedback blocks taken out. */
function splitBody(nodes: XmlNode[], interaction: XmlElement, taken: { scorer: XmlNode[][]; tutor: XmlNode[][]; ignoredViews: Set<string> }): XmlNode[] {
  const out: XmlNode[] = [];
  for (const n of nodes) {
    if (!isElement(n)) {
      out.push(n);
      continue;
    }
    if (n === interaction) {
      out.push(...(child(n, 'qti-prompt')?.children ?? []));
    } else if (n.name === 'qti-rubric-block') {
      const v = views(n);
      if (v.includes('scorer')) taken.scorer.push(contentOf(n));
      if (v.includes('tutor')) taken.tutor.push(contentOf(n));
      if (v.includes('candidate')) out.push({ name: 'div', attrs: {}, children: contentOf(n) });
      for (const x of v) if (!['scorer', 'tutor', 'candidate'].includes(x)) taken.ignoredViews.add(x);
    } else if (n.name === 'qti-feedback-block' || n.name === 'qti-modal-feedback') {
      taken.tutor.push(contentOf(n));
    } else {
      out.push({ ...n, children: splitBody(n.children, interaction, taken) });
    }
  }
  return out;
}

const CRITERION = /^\*\*(.+?)\*\*\s*\((\d+(?:\.\d+)?)\s*marks?\)\s*(?::\s*([\s\S]*))?$/i;
const POINTS = /^\[(\d+(?:\.\d+)?)\]\s*([\s\S]+)$/;
const RUBRIC_NAME = /^\*\*Rubric(?::\s*(.+?))?\*\*$/i;
const MODEL_ANSWER = /^\*\*Model answer:?\*\*:?$/i;

type Criterion = ImportedRubric['criteria'][number];

function criterion(md: string): Criterion | null {
  const a = CRITERION.exec(md.trim());
  if (a) return { title: a[1]!.trim(), maxMarks: Number(a[2]), ...(a[3]?.trim() ? { description: a[3].trim() } : {}) };
  const b = POINTS.exec(md.trim());
  if (!b) return null;
  const text = b[2]!.trim().replace(/\s+/g, ' ');
  return text.length <= 200 ? { title: text, maxMarks: Number(b[1]) } : { title: `${text.slice(0, 197)}…`, maxMarks: Number(b[1]), description: text };
}

/** What one scorer rubric block holds: criteria, a model answer, or guidance text. */
function readScorer(nodes: XmlNode[]): { name?: string; criteria?: Criterion[]; modelAnswer?: string; guidance?: string } {
  const mds = blocks(nodes);
  if (mds.length && MODEL_ANSWER.test(mds[0]!)) return { modelAnswer: mds.slice(1).join('\n\n') };
  const name = mds.length ? RUBRIC_NAME.exec(mds[0]!) : null;
  const items = findElements({ name: 'x', attrs: {}, children: nodes }, (x) => x.name === 'li').map((li) => criterion(markdownOf(li.children)));
  const lines = (name ? mds.slice(1) : mds).map(criterion);
  const criteria = items.length ? items : lines;
  if (criteria.length && criteria.length <= 20 && criteria.every((c) => c !== null)) return { name: name ? (name[1] ?? 'Rubric').trim() : undefined, criteria: criteria as Criterion[] };
  return { guidance: mds.join('\n\n') };
}

/** A description of the item for messages: identifier, title and file. */
export const itemName = (root: XmlElement, file: string): string => `item "${root.attrs.identifier ?? '?'}"${root.attrs.title ? ` ("${root.attrs.title}")` : ''} in ${file}`;

/**
 * Reads one item.
 * @param section the section title it sits in (from the assessment test), if any
 * @returns the question, or the reason it cannot be imported (naming the item)
 */
export function readItem(root: XmlElement, file: string, section?: string): ItemRead | string {
  const name = itemName(root, file);
  if (root.name !== 'qti-assessment-item') return `${file} is not a QTI 3.0 item (its root is <${root.name}>, not <qti-assessment-item>)`;
  const body = child(root, 'qti-item-body');
  if (!body) return `${name} has no qti-item-body`;
  const interactions = findElements(body, (x) => x.name.endsWith('-interaction'));
  if (!interactions.length) return `${name} has no interaction: nothing to answer`;
  if (interactions.length > 1) return `${name} has ${interactions.length} interactions; a HallCBT question has one`;
  const interaction = interactions[0]!;
  if (interaction.name !== 'qti-choice-interaction' && interaction.name !== 'qti-extended-text-interaction') {
    return `${name}: its ${interaction.name} is not supported (HallCBT reads choice and extended-text interactions)`;
  }
  try {
    return readSupported(root, body, interaction, name, section);
  } catch (e) {
    if (e instanceof UnreadableMath) return `${name}: ${e.message}; write that formula as LaTeX (or add an application/x-tex annotation) and export again`;
    throw e;
  }
}

function readSupported(root: XmlElement, body: XmlElement, interaction: XmlElement, name: string, section?: string): ItemRead | string {
  const warnings: string[] = [];
  const taken = { scorer: [] as XmlNode[][], tutor: [] as XmlNode[][], ignoredViews: new Set<string>() };
  const prompt = markdownOf(splitBody(body.children, interaction, taken));
  if (!prompt) return `${name} has no question text`;
  for (const f of childElements(root, 'qti-modal-feedback')) taken.tutor.push(contentOf(f));
  if (taken.ignoredViews.size) warnings.push(`Rubric blocks for ${[...taken.ignoredViews].join(', ')} were left out.`);
  const explanation = taken.tutor.map(markdownOf).filter(Boolean).join('\n\n');
  const declared = maxScore(root);
  const common = { prompt, ...(explanation ? { explanation } : {}), ...(section ? { section } : {}) };
  const decl = declarations(root).get(interaction.attrs['response-identifier'] ?? '');

  if (interaction.name === 'qti-choice-interaction') {
    const choices = childElements(interaction, 'qti-simple-choice');
    if (choices.length < 2 || choices.length > 10) return `${name} has ${choices.length} choices; a HallCBT MCQ has 2 to 10`;
    const ids = choices.map((c) => c.attrs.identifier ?? '');
    const multiple = decl?.cardinality === 'multiple' || (interaction.attrs['max-choices'] ?? '1').trim() !== '1';
    let correct = (decl?.correct ?? []).filter((v, i, all) => all.indexOf(v) === i);
    if (!correct.length && decl?.mapping.size) {
      const best = Math.max(...decl.mapping.values());
      correct = best > 0 ? [...decl.mapping].filter(([, v]) => (multiple ? v > 0 : v === best)).map(([k]) => k) : [];
    }
    const unknown = correct.filter((v) => !ids.includes(v));
    if (unknown.length) return `${name}: its correct response ${unknown.join(', ')} is not one of its choices`;
    if (!correct.length) return `${name} has no correct response`;
    if (correct.length > 1) return `${name} is a multiple-response item with ${correct.length} correct choices (${correct.join(', ')}); a HallCBT MCQ has exactly one key, so it was not imported`;
    if (multiple) warnings.push('A multiple-response item with one correct choice was imported as a single-answer MCQ.');
    const texts = choices.map((c) => markdownOf(c.children));
    const ownLabels = ids.every((id) => /^[A-Za-z0-9]$/.test(id)) && new Set(ids).size === ids.length;
    const options: ImportedOption[] = texts.map((text, i) => ({ keyLabel: ownLabels ? ids[i]! : String.fromCharCode(65 + i), text, isCorrect: ids[i] === correct[0] }));
    const trueFalse = texts.length === 2 && texts.map((t) => t.trim().toLowerCase()).sort().join() === 'false,true';
    const mapped = decl?.mapping.get(correct[0]!);
    const marks = declared ?? (mapped && mapped > 0 ? mapped : 1);
    return { question: { ...common, type: trueFalse ? 'TRUE_FALSE' : 'MCQ', marks, options }, warnings };
  }

  const lines = numberOf(interaction.attrs['expected-lines']);
  const length = numberOf(interaction.attrs['expected-length']);
  const minW = numberOf(interaction.attrs['data-min-words']);
  const maxW = numberOf(interaction.attrs['data-max-words']);
  const type = (lines !== undefined ? lines <= 5 : maxW !== undefined ? maxW <= ESSAY_WORDS.SHORT_ESSAY.maxWords : length !== undefined && length <= 600) ? 'SHORT_ESSAY' : 'LONG_ESSAY';
  const guidance: string[] = [];
  let modelAnswer = (decl?.correct ?? []).join('\n\n').trim();
  let rubric: ImportedRubric | undefined;
  for (const nodes of taken.scorer) {
    const s = readScorer(nodes);
    if (s.modelAnswer) modelAnswer = [modelAnswer, s.modelAnswer].filter(Boolean).join('\n\n');
    if (s.guidance) guidance.push(s.guidance);
    if (s.criteria) {
      const total = s.criteria.reduce((a, c) => a + c.maxMarks, 0);
      if (rubric || (declared !== undefined && Math.abs(total - declared) > 1e-6)) {
        warnings.push(rubric ? 'A second scoring rubric was kept as guidance in the model answer.' : `The scoring criteria add up to ${total} marks but the item's maximum score is ${declared}; they were kept as guidance in the model answer.`);
        guidance.push(blocks(nodes).join('\n\n'));
      } else rubric = { name: s.name ?? 'Rubric', totalMarks: total, criteria: s.criteria };
    }
  }
  modelAnswer = [modelAnswer, ...guidance].filter(Boolean).join('\n\n');
  const marks = declared ?? rubric?.totalMarks ?? 1;
  const d = ESSAY_WORDS[type];
  return {
    question: { ...common, type, marks, minWords: minW ?? Math.min(d.minWords, maxW ?? d.minWords), maxWords: maxW ?? d.maxWords, ...(modelAnswer ? { modelAnswer } : {}), ...(rubric ? { rubric } : {}) },
    warnings,
  };
}
