/**
 * Point marking, as a WAEC/NECO/ICAN examiner marks "any N points, M marks each":
 * the points a criterion accepts are built from its guidance (listed alternatives or
 * items with their own marks) with their content from the model answer; without a list
 * they are the model answer's own points (for its part "(a)", "(b)" … when the title
 * names one). Each point is looked for in the response's sentences and list items: the
 * point's name earns the "stated" share, its explanation (the model answer's words for
 * it, or a reasoned clause of the candidate's own) the rest. The best `count` points
 * are credited once each.
 */
import { splitSentences } from '../../generation/text/nlp.js';
import type { Guidance } from './guidance.js';
import { coverage, ideaUnit, responseStems, stemCredit, type IdeaUnit, type Lexicon, type ResponseStems } from './ideas.js';

/** One creditable point: names it may be stated by, and the words that explain it. */
export interface Point {
  label: string;
  heads: IdeaUnit[];
  body: IdeaUnit | null;
  marks: number;
  /** A part of the answer ("definition", "significance") credited by how much of its content a sentence covers, with no name to state it by. */
  evidence?: IdeaUnit[];
  /** The part is an explanation (significance, application): notes do not earn it. */
  explains?: boolean;
}

/** How a criterion is marked by points. */
export interface PointPlan {
  points: Point[];
  count: number;
  perPoint: number;
  statedShare: number;
  /** What the guidance says earns nothing; `listed`: named in its brackets (wins a tie with a point), else a subject ("Causes of …"). */
  excluded?: { unit: IdeaUnit; listed: boolean }[];
}

/** One point's result in a response. */
export interface PointCredit {
  point: Point;
  credit: number;
  stated: boolean;
  explained: number;
  unit: number;
  match: number;
}

/** The model answer's points: per part label ("a", "b" or ""), numbered items, lines or sentences. */
export function modelPoints(modelAnswer: string): { part: string; text: string }[] {
  const out: { part: string; text: string }[] = [];
  const parts = modelAnswer.split(/(?:^|\s)\(([a-h])\)\s/m);
  const labelled = parts.length > 1;
  for (let i = labelled ? 1 : 0; i < parts.length; i += labelled ? 2 : 1) {
    const part = labelled ? parts[i]! : '';
    const body = labelled ? parts[i + 1] ?? '' : parts[i]!;
    const items = body.split(/\n+|(?:^|\s)(?:\d{1,2}|[ivx]{1,4})[.)]\s+/).map((t) => t.trim()).filter((t) => t.length > 3);
    const pieces = items.length > 1 ? items : splitSentences(body);
    for (const p of pieces) {
      // "Others: a, b (…), c" lists further points by name: each is a point.
      const others = /^\s*(?:others?|also|other (?:points|answers|techniques|examples))\s*[:–-]\s*(.+)$/is.exec(p);
      if (others) {
        for (const t of others[1]!.split(/,(?![^(]*\))|;/)) if (t.trim().length > 3) out.push({ part, text: t.trim().replace(/\.$/, '') });
        continue;
      }
      // "Any four: high fever; chills; sweating; headache; …" is a list of points, each a point, not one point named "Any four".
      const anyList = /^\s*(?:any|up to)\s+\S+\s*:\s*(.+)$/is.exec(p);
      if (anyList && anyList[1]!.split(/;\s+/).length >= 3) {
        for (const t of anyList[1]!.split(/;\s+/)) if (t.trim().length > 3) out.push({ part, text: t.trim().replace(/\.$/, '') });
        continue;
      }
      // A sentence with several "; "-separated findings is several points (", so"-clauses stay with their point); a named point ("Game theory: …; it …") stays one.
      const named = /^[^:;]{3,60}:\s/.test(p.replace(/^\(?(?:[ivx]{1,4}|[a-h])[.)]\s+/i, ''));
      for (const t of p.length > 160 && p.includes('; ') && !named ? p.split(/;\s+/) : [p]) out.push({ part, text: t.trim() });
    }
  }
  return out.filter((p) => p.text.length > 3);
}

/** The names a listed point may be stated by: "bad roads/poor maintenance", "a or b", "insecurity (robbery, kidnapping)". */
function headUnits(text: string, prompt: Set<string>): IdeaUnit[] {
  // Short names in brackets are other names ("insecurity (robbery, kidnapping)"); a longer phrase explains the point, and a remark ("one point, credit once") names nothing.
  // (after a point stated at length a single word there is a detail, "transmits the loads … (dead, live, wind) safely to the subsoil":
  // it names nothing alone)
  const bare = text.replace(/\([^)]*\)/g, ' ');
  const long = bare.split(/\s+/).filter((w) => /\p{L}{3}/u.test(w)).length > 4;
  const inner = bracketed(text).filter((t) => t.split(/\s+/).filter(Boolean).length <= 3 && !(long && !/\s/.test(t)));
  const outer = bare.split(/\/|\s+or\s+|\s+=\s+/);
  // A name made only of the question's own words ("no one is above the law" in a question on the rule of law) names nothing.
  return [...outer, ...inner].map((t) => ideaUnit(t, prompt)).filter((u) => [...u.stems.values()].some((w) => w === 1));
}

/** The phrases in a listed point's brackets, without marking remarks ("credit once", "accept …"). */
function bracketed(text: string): string[] {
  return [...text.matchAll(/\(([^)]*)\)?/g)]
    .map((m) => m[1]!)
    .filter((t) => !/\b(?:credit\w*|marks?|accept\w*|once|only)\b/i.test(t))
    // "(gasping, coughing, nasal discharge - one point)": the remark closes the list of names, it does not void it.
    .flatMap((t) => t.replace(/\s*[-–]\s*(?:one|a single|the same)\s+point\b.*$/i, '').split(/,|\//))
    .map((t) => t.trim())
    .filter((t) => t && !/\bpoints?\b/i.test(t));
}

/** The model answer's sentence about `text` (most of its name found there), as the point's explanation. */
function bodyFor(heads: IdeaUnit[], model: { text: string }[], prompt: Set<string>): IdeaUnit | null {
  let best: { score: number; text: string } | null = null;
  for (const m of model) {
    const r = responseStems(m.text);
    const score = Math.max(0, ...heads.map((h) => coverage(h, r)));
    if (score >= 0.5 && (!best || score > best.score)) best = { score, text: m.text };
  }
  if (!best) return null;
  const body = ideaUnit(best.text, prompt);
  for (const h of heads) for (const s of h.stems.keys()) body.stems.delete(s);
  return body.stems.size >= 2 ? body : null;
}

/** Words in many points' explanations ("soil", "crops") tell the points apart poorly: weigh them by rarity among the points. */
function distinguishBodies(points: Point[]): void {
  const bodies = [...new Set(points.map((p) => p.body).filter((b): b is IdeaUnit => b !== null))];
  const n = bodies.length;
  if (n < 3) return;
  const df = new Map<string, number>();
  for (const b of bodies) for (const st of b.stems.keys()) df.set(st, (df.get(st) ?? 0) + 1);
  for (const b of bodies) for (const [st, w] of b.stems) b.stems.set(st, w * (Math.log(1 + n / df.get(st)!) / Math.log(1 + n)));
}

/** A criterion title's label: "(a) ", "c) ", "iv. ", "2. ". */
export const CRITERION_LABEL = /^\s*\(?(?:[a-h]|\d{1,2}|[ivx]{1,4})[.)]\s*/i;

const DEFINE = /\b(?:defin\w*|meaning)\b/i;
/** Names of the parts of an answer rather than of points: its definition, its significance or explanation. */
const ROLE = /^\s*(?:(?:the\s+)?(?:defin\w*|meaning)|(?:\w+\s+){0,2}(?:significance|importance|explanation|application|illustration|example))\s*$/i;

/** The model answer's item on the criterion's subject ("i. Going concern: …" for a criterion titled "i. Going concern"), without its name. */
export function sectionFor(title: string, modelAnswer: string): string | null {
  const name = title.replace(CRITERION_LABEL, '').trim().toLowerCase();
  if (name.length < 3) return null;
  const items = modelAnswer.split(/\n+|(?:^|\s)\(?(?:\d{1,2}|[ivx]{1,4}|[a-h])[.)]\s+/);
  const hit = items.find((i) => i.trim().toLowerCase().slice(0, name.length + 20).includes(name));
  return hit ? hit.trim().replace(/^[^:]{0,60}:\s*/, '') : null;
}

/** Builds a criterion's points from its guidance and the model answer (restricted to the criterion's part when labelled). */
function planPointsOnly(g: Guidance, title: string, description: string, maxMarks: number, modelAnswer: string, prompt: Set<string>, explainVerb: boolean): PointPlan {
  const part = /^\s*\(?([a-h])\)/i.exec(title)?.[1]?.toLowerCase();
  const all = modelPoints(modelAnswer);
  const model = part && all.some((m) => m.part === part) ? all.filter((m) => m.part === part) : all;
  let points: Point[];
  if (g.marked.length && g.marked.every((m) => ROLE.test(m.text.split(':')[0]!))) {
    const section = sectionFor(title, modelAnswer);
    points = g.marked.map((m) => {
      const [name, content] = [m.text.split(':')[0]!, m.text.split(':').slice(1).join(':')];
      const sentences = section ? splitSentences(section) : [];
      const own = DEFINE.test(name) ? sentences.slice(0, 1) : sentences.length > 1 ? sentences.slice(1) : sentences;
      const evidence = [ideaUnit(own.join(' '), prompt), ideaUnit(content, prompt)];
      // The significance is what the definition does not already say: the subject's and the definition's words are not evidence of it.
      if (!DEFINE.test(name)) for (const e of evidence) for (const st of ideaUnit(`${title} ${sentences[0] ?? ''}`, prompt).stems.keys()) if (e.stems.size > 2) e.stems.delete(st);
      return { label: `${name.trim()}${section ? '' : ` (${content.trim().slice(0, 60)})`}`, heads: [], body: null, marks: m.marks, evidence: evidence.filter((u) => u.stems.size >= 2), explains: !DEFINE.test(name) };
    });
    return { points, count: points.length, perPoint: 0, statedShare: 1 };
  }
  if (g.marked.length) {
    points = g.marked.map((m) => {
      const heads = headUnits(m.text, prompt);
      return { label: m.text, heads, body: bodyFor(heads, model, prompt) ?? ideaUnit(description.replace(/\([^)]*\)/g, ' '), prompt), marks: m.marks };
    });
    return { points, count: points.length, perPoint: 0, statedShare: 1 };
  }
  if (g.alternatives.length) {
    points = g.alternatives.map((a) => {
      const heads = headUnits(a, prompt);
      // A longer phrase in the point's brackets ("bulk buying (manufacturer concentrates on production)") is its explanation when the model answer has none.
      const said = bracketed(a).filter((t) => t.split(/\s+/).length > 3).join(' ');
      const own = said ? ideaUnit(said, prompt) : null;
      return { label: a.replace(/\s*\([^)]*\)?/g, ''), heads, body: bodyFor(heads, model, prompt) ?? (own && own.stems.size >= 2 ? own : null), marks: g.perPoint ?? 1 };
    });
  } else if (g.count || model.length === 0) {
    const texts = model.map((m) => m.text.replace(/^\(?(?:[ivx]{1,4}|[a-h])[.)]\s+/i, ''));
    // The point's name: before its colon or dash ("Poverty: …"), or a short subject defined by "means"/"is" ("Remoteness of damage means …").
    const nameOf = (text: string) => /^([^:–-]{3,60})\s*[:–-]\s/.exec(text)?.[1] ?? /^((?:[\p{L}'-]+\s+){0,3}?[\p{L}'-]+)\s+(?:means|is|are|refers to)\s/iu.exec(text)?.[1];
    // A name two points share ("The trees are tall …", "The trees are evergreen …") tells neither apart: the point is what is said of it.
    const shared = new Set(texts.map(nameOf).filter((n, i, all): n is string => !!n && all.indexOf(n) !== i).map((n) => n.toLowerCase()));
    points = texts.map((text) => {
      const found = nameOf(text);
      const name = found && !shared.has(found.toLowerCase()) ? found : undefined;
      const named = name ? headUnits(name, prompt) : [];
      const heads = named.length ? named : headUnits(text, prompt);
      const body = ideaUnit(named.length ? text.slice(name!.length) : text, prompt);
      return { label: named.length ? name! : text.slice(0, 60), heads, body: named.length ? body : null, marks: g.perPoint ?? 1 };
    });
  } else {
    // No count, list or marks: the description is the content, as one point worth the criterion.
    const heads = headUnits(description || title, prompt);
    points = [{ label: title, heads, body: bodyFor(heads, model, prompt), marks: maxMarks }];
    return { points, count: 1, perPoint: maxMarks, statedShare: 1 };
  }
  distinguishBodies(points);
  const count = g.count ?? Math.min(points.length, maxMarks);
  const perPoint = g.perPoint ?? maxMarks / count;
  // One mark (or less) a point is not split between stating and explaining unless the guidance splits it (WAEC "1 mark each": stated is credited).
  const statedShare = g.statedShare ?? (perPoint >= 2 || (explainVerb && perPoint > 1) ? 0.5 : 1);
  return { points, count, perPoint, statedShare };
}

/** Builds a criterion's points from its guidance and the model answer (restricted to the criterion's part when labelled), with what the guidance says earns nothing. */
export function planPoints(g: Guidance, title: string, description: string, maxMarks: number, modelAnswer: string, prompt: Set<string>, explainVerb: boolean): PointPlan {
  const plan = planPointsOnly(g, title, description, maxMarks, modelAnswer, prompt, explainVerb);
  const subjects = new Set(excludedSubjects(description));
  const excluded = g.excluded.map((e) => ({ unit: ideaUnit(e, prompt), listed: !subjects.has(e) })).filter((e) => [...e.unit.stems.values()].some((w) => w === 1));
  return excluded.length ? { ...plan, excluded } : plan;
}

/** The subjects ("Causes of drug abuse") among the guidance's no-credit items, as opposed to the items listed in brackets. */
function excludedSubjects(description: string): string[] {
  return [...description.matchAll(/(?:^|[.!]\s+)([^().]{3,50}?)\s*(?:\([^)]*\)\s*)?(?:is|are)\s+not\b/gi)].map((m) => m[1]!.trim());
}

/** A response's sentence or list item, indexed for matching. */
export type ResponseUnit = ResponseStems & {
  text: string;
  /** The essay's frame (introduction, conclusion, a heading in capitals): states no point. */
  aside?: boolean;
  /** The part of the question the candidate labelled it with ("c" under a line "(c) …"). */
  part?: string;
  /** It begins an item of the candidate's list: a line "2. …", "(iii) …", "- …". */
  item?: boolean;
};

/** A part label at a line's start: "(c)", "c)", "(c)(i)"; group 1 the letter. */
const PART_LABEL = /^\s*\(?([a-h])\)\s*/i;
/** A list item's marker at a line's start (after any part label): "1.", "2)", "(iii)", "iv.", "-", "•". */
const ITEM_MARKER = /^\s*(?:\d{1,2}[.)]|\(?[ivx]{1,4}\)|[ivx]{1,4}\.|[-•*])\s+/i;

/** Sentences and list items of a response, each indexed for matching, with the part and list item each belongs to. */
export function responseUnits(text: string, lexicon?: Lexicon): ResponseUnit[] {
  const out: ResponseUnit[] = [];
  let framing = false;
  let part: string | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim()) {
      framing = false;
      continue;
    }
    // An essay's frame earns nothing (WAEC/NECO examiners' practice): an "Introduction" or "Conclusion" paragraph, a heading in capitals, a sentence that begins "In conclusion".
    if (/^\s*(?:introduction|conclusion|summary)\s*:?\s*$/i.test(line)) {
      framing = true;
      continue;
    }
    const heading = /\p{Lu}{3}/u.test(line) && !/\p{Ll}/u.test(line);
    if (heading) framing = false;
    const label = PART_LABEL.exec(line);
    if (label) part = label[1]!.toLowerCase();
    const rest = label ? line.slice(label[0].length) : line;
    const where = part ? { part } : {};
    const itemLine = ITEM_MARKER.test(rest);
    let first = true;
    for (const s of splitSentences(line).flatMap((t) => t.split(/;\s+|\s+-\s+(?=\p{Lu})|(?<=\p{Ll}{3,}\.)\s+(?=\p{Lu})/u))) {
      if (!s.trim()) continue;
      const aside = framing || heading || /^\s*(?:in conclusion|to conclude|in summary|to sum up)\b/i.test(s);
      out.push(Object.assign(responseStems(s, lexicon), { text: s }, aside ? { aside } : {}, where, itemLine && first ? { item: true } : {}));
      first = false;
    }
  }
  // In an answer labelled "(a) … (b) …", what comes before the first label is its introduction (docs/decisions.md,
  // "An introduction before the first part label earns nothing"; an unlabelled answer to (a) before "(b)" is read so too).
  const firstLabelled = out.findIndex((u) => u.part !== undefined);
  for (let i = 0; i < firstLabelled; i++) out[i]!.aside = true;
  return out;
}

/** A note rather than a sentence: every phrase between commas, dashes, colons or brackets has at most four words, and none says "is", "means", "because"… */
export function isNote(text: string | undefined): boolean {
  const phrases = (text ?? '').split(/[,;:()/]|\s[-–—]\s|\s[-–—]|[-–—]\s/).map((p) => p.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length).filter((n) => n > 0);
  return phrases.length > 0 && Math.max(...phrases) <= 4 && !/\b(?:is|are|was|were|means?|can|will|because|so|which|that|when|if)\b/i.test(text ?? '');
}

/** The figures in a text ("0.2", "4200"), without small whole numbers that count things ("1 kg", "3 marks") unless `all`. */
function numbersIn(text: string, all = false): string[] {
  return [...text.replace(/(\d),(\d{3})\b/g, '$1$2').matchAll(/(?<![\w.])\d+(?:\.\d+)?(?![\w])/g)].map((m) => String(Number(m[0]))).filter((n) => all || n.includes('.') || Number(n) > 10);
}

/** Share of a part's content a sentence must cover for its full marks (half as much: half the marks). */
const COMPONENT_FULL = 0.35;

const NEGATION = /\b(?:not|cannot|can't|never|no|without)\b|n't\b/i;

const REASON = /\b(?:because|so|since|therefore|thus|hence|which|causes?|caus\w+|leads?|led|results?|makes?|made|means?|when|if|as a result|due to|by|increas\w+|reduc\w+|prevents?|helps?)\b/i;

/** Credit (0–1) of each point in the response, best unit per point. */
export function creditPoints(plan: PointPlan, units: (ResponseStems & { text?: string })[], scope?: Set<number>): PointCredit[] {
  const all = creditPairs(plan, units, scope);
  return plan.points.map((point) => all.filter((c) => c.point === point).reduce((a, b) => (b.credit > a.credit ? b : a), { point, credit: 0, stated: false, explained: 0, unit: -1, match: 0 }));
}

/** Every (point, sentence) pair with some credit; `match` (the name's and explanation's raw coverage) breaks ties. */
export function creditPairs(plan: PointPlan, allUnits: (ResponseStems & { text?: string; aside?: boolean })[], scope?: Set<number>): PointCredit[] {
  // The essay's frame (introduction, conclusion, headings in capitals) states no point: it is matched as an empty sentence.
  const units = allUnits.map((u) => (u.aside ? { ...responseStems(''), text: '' } : u));
  const pairs: PointCredit[] = [];
  // Notes ("Immunity", "foreseeable future, no liquidation") state points; they explain nothing (WAEC/ICAN practice for "explain").
  const notes = units.map((u, i) => isNote(u.text) && (i + 1 >= units.length || isNote(units[i + 1]!.text)));
  // A sentence that says what the guidance gives no credit for ("breaking bulk" where services to the manufacturer are asked) earns no point it matches less well.
  const barred = units.map((u) => {
    const hits = (plan.excluded ?? []).map((e) => ({ listed: e.listed, cover: coverage(e.unit, u, true) })).filter((e) => e.cover >= 0.6);
    return (point: Point, unit: ResponseStems) => {
      if (!hits.length) return false;
      const head = Math.max(0, ...point.heads.map((h) => coverage(h, unit, true)));
      return hits.some((e) => (e.listed ? e.cover >= head : head < 0.5));
    };
  });
  for (const point of plan.points) {
    const add = (c: PointCredit) => c.credit > 0 && pairs.push(c);
    if (point.evidence) {
      units.forEach((u, i) => {
        if ((scope && !scope.has(i)) || (point.explains && notes[i])) return;
        const cover = Math.max(0, ...point.evidence!.map((e) => coverage(e, u, true)));
        // One shared word ("item") is not a definition or an explanation: at least two of its words.
        const hits = Math.max(0, ...point.evidence!.map((e) => [...e.stems.keys()].filter((st) => stemCredit(u, st) > 0).length));
        const credit = hits < 2 ? 0 : cover >= COMPONENT_FULL ? 1 : cover >= COMPONENT_FULL / 2 ? 0.5 : 0;
        add({ point, credit, stated: credit > 0, explained: credit, unit: i, match: cover });
      });
      continue;
    }
    const negated = NEGATION.test(point.label);
    const figures = numbersIn(point.label);
    units.forEach((u, i) => {
      if ((scope && !scope.has(i)) || barred[i]!(point, u)) return;
      // "not removed by boiling" is met only by a sentence that says not; "removable by boiling" rather by one that does not.
      const saysNot = NEGATION.test(u.text ?? '');
      if (negated && !saysNot) return;
      // A worked answer's figures ("0.2 × c × 70 = 0.1 × 4200 × 5"; "c = 150") are its name: the share of them the sentence writes.
      const written = figures.length ? numbersIn(u.text ?? '', true) : [];
      const figured = figures.length ? figures.filter((f) => written.includes(f)).length / figures.length : 0;
      // (An item with figures is not stated by its words alone: "c = 150 J kg⁻¹ K⁻¹" needs the 150.)
      const named = Math.max(0, ...point.heads.map((h) => coverage(h, u, true)));
      const head = (figures.length ? (figured > 0 ? Math.max(figured, named) : 0) : named) * (!negated && saysNot ? 0.99 : 1);
      const next = units[i + 1];
      const around = next ? { ...u, exact: new Set([...u.exact, ...next.exact]), related: new Map([...next.related, ...u.related]) } : u;
      const body = point.body ? coverage(point.body, around) : 0;
      // The model answer's explanation may stand for the name (a paraphrase), but only with some of the name or most of the explanation.
      // A name is stated by more than half of its words ("mathematical" alone does not state "mathematical logic"); half of it is partly stated.
      const stated = head > 0.55 || (body >= 0.5 && head > 0) || body >= 0.65;
      const partly = !stated && head >= 0.3 ? 0.5 : 0;
      const reasoned = stated && REASON.test(u.text ?? '') && u.exact.size >= 5 ? 0.5 : 0;
      const explained = stated && !notes[i] ? Math.max(Math.min(1, body / 0.35), reasoned) : 0;
      const s = plan.statedShare;
      const credit = s >= 1 ? (stated ? 1 : partly) : (stated ? s : partly * s) + (1 - s) * explained;
      add({ point, credit, stated, explained, unit: i, match: head + body });
    });
  }
  return pairs;
}
