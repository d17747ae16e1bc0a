/**
 * fast-check arbitraries from the OpenAPI document's JSON Schemas (3.1): values that
 * follow a request schema ("valid-ish": types, enums, bounds, required keys, formats),
 * with field names the fuzzer knows (workspaceId, examId, questionId, optionId,
 * accessCode …) filled most of the time by placeholders such as `@@examId@@` that the
 * sender replaces with a real object's id — so generated bodies get past validation
 * and reach the handlers — and mutations that break them in the ways clients do
 * (a required key dropped, a wrong type, unknown and prototype-polluting keys).
 */
import fc from 'fast-check';

type Schema = Record<string, any>;

/** Field name → placeholder values (see world.ts for what they stand for). */
const HINTS: Record<string, string[]> = {
  workspaceId: ['@@workspaceId@@', '@@otherWorkspaceId@@'],
  examId: ['@@examId@@', '@@rosterExamId@@'],
  questionId: ['@@questionId@@', '@@essayQuestionId@@'],
  optionId: ['@@optionId@@'],
  attemptId: ['@@attemptId@@'],
  accessCode: ['@@accessCode@@'],
  studentId: ['FZ-1', 'FZ-NEW', 'FZ-R1'],
  candidatePin: ['1234', '@@rosterPin@@'],
  criterionId: ['@@criterionId@@'],
  webhookUrl: ['http://127.0.0.1:9/hook'],
  email: ['@@ownerEmail@@'],
  schoolId: ['SCH-FUZZ'],
};

/** Resolves `$ref: '#/components/schemas/X'` against the document. */
function resolve(schema: Schema, doc: Schema): Schema {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = doc.components?.schemas?.[String(s.$ref).split('/').pop()!] ?? {};
  return s ?? {};
}

const text = (min: number, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.constantFrom('<script>x()</script>', "'; DROP TABLE exams; --", '${7*7}', '\u0000', '../../etc/passwd', '\u202e', '0', 'null').filter((s) => s.length >= min && s.length <= max) },
  );

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? 60, 60));
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'uri' || s.format === 'url') return fc.oneof(fc.webUrl(), fc.constantFrom('javascript:alert(1)', 'file:///etc/passwd', 'http://169.254.169.254/latest'));
  if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  return text(min, max);
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : -1e6);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : 1e6);
  if (integer) return fc.integer({ min: Math.ceil(lo + (s.exclusiveMinimum !== undefined ? 1 : 0)), max: Math.floor(hi) });
  return fc.double({ min: lo, max: hi, minExcluded: s.exclusiveMinimum !== undefined, noNaN: true, noDefaultInfinity: true });
}

/**
 * An arbitrary of values for `schema`. `name` is the property name (for hints).
 * Depth is capped so recursive or deep schemas stay small.
 */
export function schemaArbitrary(schema: Schema, doc: Schema, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, doc);
  const base = baseArbitrary(s, doc, depth);
  const hint = name ? HINTS[name] : undefined;
  if (hint && !(s.type === 'array' || s.enum)) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...hint) }, { weight: 1, arbitrary: base });
  if (name === 'questionIds') return fc.oneof({ weight: 3, arbitrary: fc.constant(['@@questionId@@', '@@essayQuestionId@@', '@@question3Id@@']) }, { weight: 1, arbitrary: base });
  return base;
}

function baseArbitrary(s: Schema, doc: Schema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (s.allOf) return schemaArbitrary(Object.assign({}, ...s.allOf.map((x: Schema) => resolve(x, doc))), doc, undefined, depth + 1);
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return fc.oneof(...alts.map((a: Schema) => schemaArbitrary(a, doc, undefined, depth + 1)));
  if (s.enum) return fc.constantFrom(...s.enum);
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : [];
  if (!types.length) return fc.jsonValue({ maxDepth: 2 });
  const nonNull = types.filter((t) => t !== 'null');
  const arbs = nonNull.map((t) => typed(t, s, doc, depth));
  if (types.includes('null')) arbs.push(fc.constant(null));
  return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
}

function typed(type: string, s: Schema, doc: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schemaArbitrary(s.items ?? {}, doc, undefined, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 4, 4)) });
    case 'object': {
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) props[k] = schemaArbitrary(v, doc, k, depth + 1);
      return fc.record(props, { requiredKeys: (s.required ?? []).filter((k: string) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** What a mutation does to a generated object body. */
export type Mutation = 'none' | 'drop' | 'wrong-type' | 'extra' | 'proto';

/** Applies `m` to `value` using `pick` (an index) and `junk` (a replacement value). */
export function mutate(value: unknown, m: Mutation, pick: number, junk: unknown): unknown {
  if (m === 'none') return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return m === 'wrong-type' ? junk : value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const key = keys.length ? keys[pick % keys.length]! : 'x';
  if (m === 'drop') delete copy[key];
  else if (m === 'wrong-type') copy[key] = junk;
  else if (m === 'extra') copy[`unexpected_${pick % 7}`] = junk;
  else Object.defineProperty(copy, '__proto__', { value: { isAdmin: true, credits: 1e9 }, enumerable: true, configurable: true, writable: true });
  return copy;
}
