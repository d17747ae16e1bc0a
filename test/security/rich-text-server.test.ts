/**
 * The server's rendering of question text (src/core/rich-text.ts, issue 26): every
 * payload of the XSS corpus, written into a prompt (block) or an option (inline), comes out
 * as HTML whose every element and attribute is on the allow-list, with no URL, no event
 * handler and no style beyond KaTeX's sizes and colours, in both forms of the maths (KaTeX
 * HTML + MathML, and MathML only for `?math=mathml`). Then the candidate start response
 * through the real server: promptHtml / option html are that rendering, and no answer key.
 * (test/security/xss.test.ts shows the same payloads inert in Chromium on both pages.)
 */
import { Parser, parseDocument } from 'htmlparser2';
import type { ChildNode } from 'domhandler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactHtml, renderRich, safeStyle, sanitisedRich, type MathForm } from '../../src/core/rich-text.js';
import { addQuestions, createExam, registerWorkspace, startAttempt, startTestServer, type TestServer } from '../harness.js';
import { PAYLOADS } from './xss/corpus.js';

const TAGS = new Set(['p', 'br', 'strong', 'em', 'b', 'i', 'u', 'sup', 'sub', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'div', 'hr', 'h1', 'h2', 'h3', 'h4', 'del', 's', 'math', 'semantics', 'mrow', 'mi', 'mo', 'mn', 'msup', 'msub', 'msubsup', 'mfrac', 'msqrt', 'mroot', 'mtext', 'mspace', 'mtable', 'mtr', 'mtd', 'mover', 'munder', 'munderover', 'mstyle', 'mpadded', 'mphantom', 'menclose', 'svg', 'path', 'line']);

/** Every element and attribute of `html` that breaks the rules, as readable strings. */
function violations(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (!TAGS.has(name)) found.push(`element <${name}>`);
        for (const [k, v] of Object.entries(attrs)) {
          if (/^on/i.test(k) || /^(href|src|srcdoc|action|formaction|xlink:href|data|background|poster)$/i.test(k)) found.push(`<${name} ${k}>`);
          if (/javascript:|data:|vbscript:/i.test(v)) found.push(`<${name} ${k}="${v}">`);
          if (k === 'style' && (/url\s*\(|expression|@import|position|behavior/i.test(v) || safeStyle(v) !== v)) found.push(`<${name} style="${v}">`);
          if ((k === 'mathcolor' || k === 'mathbackground') && !/^#?[a-z0-9]{1,20}$/i.test(v)) found.push(`<${name} ${k}="${v}">`);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
  );
  parser.write(html);
  parser.end();
  return found;
}

describe('server-side rendering of question text', () => {
  it('the detector finds the payloads when nothing sanitises them', () => {
    expect(violations(PAYLOADS.map((p) => p.text).join('\n')).length).toBeGreaterThan(20);
  });

  it.each(['html', 'mathml'] as MathForm[])('neutralises every XSS payload in prompts (block) and options (inline), maths as %s', (form) => {
    const found: string[] = [];
    for (const p of PAYLOADS) {
      for (const [where, html] of [
        ['prompt', renderRich(`**Q${p.n}** ${p.text}`, false, form)],
        ['option', renderRich(p.text, true, form)],
        ['maths', renderRich(`$x^2$ ${p.text} $$\\frac{1}{2}$$`, false, form)],
        ['formula', renderRich(`$\\text{${p.text}} + \\color{red}{x}$`, true, form)],
      ] as const) {
        for (const v of violations(html)) found.push(`payload ${p.n} in a ${where}: ${v}`);
        expect(html).not.toMatch(/<script|<iframe|<img|<object|<embed|<form|<input|<style|<a\s/i);
      }
    }
    expect(found).toEqual([]);
  });

  it('keeps a MathML colour only when it is a colour name or #hex (maths as mathml)', () => {
    const html = renderRich('<math><mstyle mathcolor="url(javascript:alert(1))" mathbackground="expression(alert(1))"><mi mathcolor="#c00">x</mi></mstyle></math> $\\colorbox{yellow}{y}$', true, 'mathml');
    expect(html).toContain('<mstyle><mi mathcolor=#c00>x</mi></mstyle>');
    expect(html).toContain('mathbackground=yellow');
    expect(html).not.toMatch(/javascript|expression/);
    expect(violations(html)).toEqual([]);
    // the HTML form keeps no MathML colour at all, as before
    expect(renderRich('<math><mi mathcolor="#c00">x</mi></math>', true)).toBe('<math><mi>x</mi></math>');
  });

  it('the mathml form: MathML only, with what it needs to look right (displaystyle, colours, notation), no TeX copy', () => {
    const html = renderRich('Find $\\frac{1}{2} + \\color{red}{x}$ and $$\\sqrt{x^2} + \\cancel{y}$$', false, 'mathml');
    expect(html).toBe('<p>Find <span class=katex><math><mrow><mstyle scriptlevel=0 displaystyle=true><mfrac><mn>1</mn><mn>2</mn></mfrac><mo>+</mo><mstyle mathcolor=red><mi>x</mi></mstyle></mstyle></mrow></math></span> and <span class=katex-display><span class=katex><math display=block><mrow><msqrt><msup><mi>x</mi><mn>2</mn></msup></msqrt><mo>+</mo><menclose notation=updiagonalstrike><mi>y</mi></menclose></mrow></math></span></span></p>\n');
    expect(violations(html)).toEqual([]);
  });

  it('keeps what questions need: Markdown, maths with its MathML copy, <sup>/<sub>, KaTeX colours and sizes', () => {
    const html = renderRich('**Bold** and *it*, H<sub>2</sub>O, 10<sup>3</sup>, $\\frac{1}{2} + \\color{red}{x}$ and $$\\sqrt{x^2}$$');
    expect(html).toContain('<strong>Bold</strong>');
    expect(html).toContain('<sub>2</sub>');
    expect(html).toContain('class=katex-display');
    expect(html, 'MathML without xmlns and <semantics> (compactHtml)').toContain('<math><mrow>');
    expect(html).not.toContain('semantics');
    expect(html).toMatch(/style=[^ >]*color:red/);
    expect(html).toMatch(/<svg[^>]* viewBox="/);
    expect(html, 'the TeX annotation (a copy of the source) is left out').not.toContain('annotation');
    expect(violations(html)).toEqual([]);
  });

  it('drops style declarations other than KaTeX\'s', () => {
    expect(safeStyle('height:1em;vertical-align:-0.25em;')).toBe('height:1em;vertical-align:-0.25em');
    expect(safeStyle('position:fixed;top:0;width:100%')).toBe('top:0;width:100%');
    expect(safeStyle('background:url(javascript:alert(1))')).toBe('');
    expect(safeStyle('color:red;background-color:rgb(1,2,3)')).toBe('color:red;background-color:rgb(1,2,3)');
    expect(safeStyle('width:calc(1px + var(--x))')).toBe('');
    expect(renderRich('<span style="position:fixed;inset:0;background:red">cover</span>', true)).toBe('<span>cover</span>');
  });
});

/** An HTML fragment parsed as a browser would, as a plain tree (tag, attributes, children, text). */
function tree(html: string): unknown[] {
  const walk = (n: ChildNode): unknown => ('children' in n && 'attribs' in n ? [n.name, n.attribs, n.children.map(walk)] : 'data' in n ? n.data : null);
  return parseDocument(html, { decodeEntities: true, lowerCaseAttributeNames: false }).children.map(walk);
}

describe('compactHtml', () => {
  it.each(['html', 'mathml'] as MathForm[])('writes the same DOM shorter: only the MathML loses xmlns and its <semantics> wrapper (maths as %s)', (form) => {
    const sources = ['Simplify $\\frac{5}{4} + \\sqrt{x^2}$, $\\theta = 30^\\circ$, "quoted" a="b" and $$\\sum_{i=1}^{n} i^{2}$$ $\\color{red}{x}$', 'H<sub>2</sub>O and <b class="x">x="y" z</b>', ...PAYLOADS.map((p) => `$x$ ${p.text}`)];
    let before = 0;
    let after = 0;
    for (const src of sources) {
      for (const inline of [false, true]) {
        const full = sanitisedRich(src, inline, form);
        const short = renderRich(src, inline, form);
        expect(short).toBe(compactHtml(full));
        // the rest of the DOM is the same; the MathML is compared below
        const withoutMathml = (h: string) => (form === 'html' ? h.replace(/<span class="?katex-mathml"?>[\s\S]*?<\/math><\/span>/g, '') : h.replace(/<math[\s\S]*?<\/math>/g, ''));
        expect(tree(withoutMathml(short)), src).toEqual(tree(withoutMathml(full)));
        const mathml = (h: string) => [...h.matchAll(/<math[\s\S]*?<\/math>/g)].map((m) => m[0]);
        expect(mathml(short).map(tree), src).toEqual(mathml(full).map((m) => tree(m.replace(/<\/?semantics>/g, '').replace(/ xmlns="[^"]*"/, ''))));
        before += full.length;
        after += short.length;
      }
    }
    expect(after).toBeLessThan(before * 0.9);
  });
});

describe('the start response carries the server rendering', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { CBT_RATE_LIMIT_PER_MIN: 100_000 } });
  });
  afterAll(async () => server?.close());

  it('promptHtml and option html are the sanitised rendering of prompt and text; no answer key', async () => {
    const w = await registerWorkspace(server.baseUrl);
    const e = await createExam(server.baseUrl, w.apiKey, w.id);
    const questions = PAYLOADS.slice(0, 12).map((p) => ({ prompt: `Solve $x^2 = 4$. ${p.text}`, type: 'MCQ', marks: 1, options: [{ text: p.text, isCorrect: true }, { text: '$\\frac{1}{2}$', isCorrect: false }] }));
    await addQuestions(server.baseUrl, w.apiKey, w.id, e.id, questions);
    const a = await startAttempt(server.baseUrl, e.accessCode, 'RT-1');
    const qs = a.questions as unknown as { prompt: string; promptHtml: string; options: { text: string; html: string }[] }[];
    expect(qs).toHaveLength(12);
    const found: string[] = [];
    for (const q of qs) {
      expect(typeof q.prompt).toBe('string');
      expect(q.promptHtml).toBe(renderRich(q.prompt));
      expect(q.promptHtml).toContain('class=katex');
      for (const o of q.options) {
        expect(Object.keys(o).sort()).toEqual(['html', 'id', 'keyLabel', 'text']);
        expect(o.html).toBe(renderRich(o.text, true));
        found.push(...violations(o.html));
      }
      found.push(...violations(q.promptHtml));
    }
    expect(found).toEqual([]);
    expect(JSON.stringify(a)).not.toMatch(/isCorrect|explanation|modelAnswer|rubric/);

    // the same attempt read with ?math=mathml: the MathML-only rendering, as inert
    const r = await fetch(`${server.baseUrl}/attempts/${a.attemptId}?math=mathml`);
    expect(r.status).toBe(200);
    const m = (await r.json()) as { questions: typeof qs };
    const foundMathml: string[] = [];
    for (const q of m.questions) {
      expect(q.promptHtml).toBe(renderRich(q.prompt, false, 'mathml'));
      expect(q.promptHtml).not.toContain('katex-html');
      for (const o of q.options) {
        expect(o.html).toBe(renderRich(o.text, true, 'mathml'));
        foundMathml.push(...violations(o.html));
      }
      foundMathml.push(...violations(q.promptHtml));
    }
    expect(foundMathml).toEqual([]);
    expect(JSON.stringify(m)).not.toMatch(/isCorrect|explanation|modelAnswer|rubric/);
  });
});
