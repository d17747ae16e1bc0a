/**
 * The QTI 3.0 reader's markup conversions (src/core/formats/qti): XHTML → Markdown, MathML
 * → LaTeX (annotation first, else the plain conversion, else a refusal naming the element),
 * and our export's Markdown → XHTML → Markdown giving the text back.
 */
import { describe, expect, it } from 'vitest';
import { mathToMarkdown, UnreadableMath } from '../../src/core/formats/qti/mathml-tex.js';
import { markdownOf } from '../../src/core/formats/qti/xhtml-markdown.js';
import { parseXml } from '../../src/core/formats/qti/xml.js';
import { xhtmlOf } from '../../src/core/formats/qti/write.js';
import { BankFormatError } from '../../src/core/formats/types.js';

const md = (xhtml: string) => markdownOf(parseXml(`<div>${xhtml}</div>`, 'test').children);
const math = (inner: string, attrs = '') => mathToMarkdown(parseXml(`<math xmlns="http://www.w3.org/1998/Math/MathML"${attrs}>${inner}</math>`, 'test'));

describe('XHTML → Markdown', () => {
  it('paragraphs, emphasis, line breaks, lists, code, tables, images', () => {
    expect(md('<p>One <strong>bold</strong> and <em>slanted</em>.</p>\n<p>Line<br/>break</p>')).toBe('One **bold** and *slanted*.\n\nLine\nbreak');
    expect(md('<ol start="3"><li>a</li><li>b</li></ol><ul><li><p>c</p></li></ul>')).toBe('3. a\n4. b\n\n- c');
    expect(md('<p>H<sub>2</sub>O and <code>x = 1</code></p>')).toBe('H<sub>2</sub>O and `x = 1`');
    expect(md('<table><tr><th>x</th><th>y</th></tr><tr><td>1</td><td>2</td></tr></table>')).toBe('| x | y |\n| --- | --- |\n| 1 | 2 |');
    expect(md('<p><img src="map.png" alt="Map"/></p>')).toBe('![Map](map.png)');
  });
});

describe('MathML → LaTeX', () => {
  it('takes the TeX annotation when there is one', () => {
    expect(math('<semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">\\sqrt{x}</annotation></semantics>')).toBe('$\\sqrt{x}$');
    expect(math('<semantics><mi>y</mi><annotation encoding="application/x-tex">y</annotation></semantics>', ' display="block"')).toBe('$$y$$');
  });
  it('converts simple presentation MathML', () => {
    expect(math('<mfrac><mn>1</mn><mn>2</mn></mfrac><mo>×</mo><msqrt><mi>a</mi></msqrt>')).toBe('$\\frac{1}{2}\\times \\sqrt{a}$');
    expect(math('<msubsup><mi>x</mi><mn>1</mn><mn>2</mn></msubsup><mo>+</mo><mi>sin</mi><mi>θ</mi>')).toBe('$x_1^2+\\sin \\theta$');
  });
  it('refuses what it cannot convert, naming the element', () => {
    expect(() => math('<mtable><mtr><mtd><mn>1</mn></mtd></mtr></mtable>')).toThrow(UnreadableMath);
    expect(() => math('<munderover><mo>∑</mo><mn>1</mn><mi>n</mi></munderover>')).toThrow(/munderover/);
  });
});

describe('Markdown → XHTML → Markdown (the export and the import)', () => {
  for (const text of ['What is $3^2$?', 'Two\n\nparagraphs with **bold**', 'A line\nbreak', '- one\n- two', 'x & y < 3 "quoted"', 'Display:\n\n$$\\int_0^1 x\\,dx$$']) {
    it(JSON.stringify(text), () => {
      expect(md(xhtmlOf(text))).toBe(text);
    });
  }
  it('refuses a DOCTYPE before parsing', () => {
    expect(() => parseXml('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', 'x.xml')).toThrow(BankFormatError);
  });
});
