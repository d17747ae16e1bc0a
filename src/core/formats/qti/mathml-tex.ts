/**
 * MathML in QTI item bodies → LaTeX for our Markdown (`$…$`, `$$…$$`), as decided in
 * docs/decisions.md, "QTI 3.0 content packages": the TeX of an
 * `<annotation encoding="application/x-tex">` when there is one (what HallCBT's own export
 * and KaTeX write), else a plain conversion of the presentation elements simple formulae
 * use (mi, mn, mo, mrow, msup, msub, msubsup, mfrac, msqrt, mroot, mtext, mspace, mfenced,
 * mstyle). Anything else (tables, under/over scripts, multiscripts…) is refused with
 * UnreadableMath, and the item with it, rather than imported wrong.
 */
import { childElements, textContent, type XmlElement, type XmlNode } from './xml.js';

/** MathML that cannot be written as LaTeX by the simple conversion. */
export class UnreadableMath extends Error {}

const OPERATORS: Record<string, string> = {
  '×': '\\times ', '÷': '\\div ', '±': '\\pm ', '∓': '\\mp ', '≤': '\\le ', '≥': '\\ge ', '≠': '\\ne ', '−': '-', '·': '\\cdot ', '⋅': '\\cdot ',
  '→': '\\to ', '←': '\\leftarrow ', '⇒': '\\Rightarrow ', '⇔': '\\Leftrightarrow ', '∞': '\\infty ', '≈': '\\approx ', '∈': '\\in ', '∉': '\\notin ',
  '⊂': '\\subset ', '⊆': '\\subseteq ', '∪': '\\cup ', '∩': '\\cap ', '∑': '\\sum ', '∏': '\\prod ', '∫': '\\int ', '∂': '\\partial ', '∠': '\\angle ',
  '°': '^\\circ ', '′': "'", '…': '\\ldots ', '⋯': '\\cdots ', '∝': '\\propto ', '∴': '\\therefore ', '≡': '\\equiv ', '∘': '\\circ ', '{': '\\{', '}': '\\}',
};
const GREEK: Record<string, string> = {
  α: 'alpha', β: 'beta', γ: 'gamma', δ: 'delta', ε: 'epsilon', ζ: 'zeta', η: 'eta', θ: 'theta', ι: 'iota', κ: 'kappa', λ: 'lambda', μ: 'mu', ν: 'nu',
  ξ: 'xi', π: 'pi', ρ: 'rho', σ: 'sigma', τ: 'tau', υ: 'upsilon', φ: 'phi', χ: 'chi', ψ: 'psi', ω: 'omega', Γ: 'Gamma', Δ: 'Delta', Θ: 'Theta',
  Λ: 'Lambda', Ξ: 'Xi', Π: 'Pi', Σ: 'Sigma', Φ: 'Phi', Ψ: 'Psi', Ω: 'Omega',
};
const FUNCTIONS = new Set(['sin', 'cos', 'tan', 'log', 'ln', 'exp', 'lim', 'max', 'min', 'sec', 'csc', 'cot', 'det']);

const symbol = (s: string): string =>
  [...s].map((ch) => (GREEK[ch] ? `\\${GREEK[ch]} ` : (OPERATORS[ch] ?? ch))).join('');

function identifier(s: string): string {
  const t = s.trim();
  if (FUNCTIONS.has(t)) return `\\${t} `;
  if ([...t].length > 1 && /^[A-Za-z]+$/.test(t)) return `\\mathrm{${t}}`;
  return symbol(t);
}

const group = (s: string): string => ([...s.trim()].length === 1 ? s.trim() : `{${s.trim()}}`);

function texOf(n: XmlNode): string {
  if (typeof n === 'string') return n.trim() ? symbol(n.trim()) : '';
  const kids = childElements(n);
  const arg = (i: number): string => {
    const k = kids[i];
    if (!k) throw new UnreadableMath(`<${n.name}> lacks an argument`);
    return texOf(k);
  };
  switch (n.name) {
    case 'math':
    case 'mrow':
    case 'mstyle':
    case 'mpadded':
    case 'semantics':
      return n.children.map(texOf).join('');
    case 'mi':
      return identifier(textContent(n));
    case 'mn':
      return textContent(n).trim();
    case 'mo':
      return symbol(textContent(n).trim());
    case 'mtext':
      return textContent(n).trim() ? `\\text{${textContent(n).replace(/[{}\\]/g, '')}}` : ' ';
    case 'mspace':
      return '\\ ';
    case 'msup':
      return `${group(arg(0))}^${group(arg(1))}`;
    case 'msub':
      return `${group(arg(0))}_${group(arg(1))}`;
    case 'msubsup':
      return `${group(arg(0))}_${group(arg(1))}^${group(arg(2))}`;
    case 'mfrac':
      return `\\frac{${arg(0)}}{${arg(1)}}`;
    case 'msqrt':
      return `\\sqrt{${n.children.map(texOf).join('')}}`;
    case 'mroot':
      return `\\sqrt[${arg(1)}]{${arg(0)}}`;
    case 'mfenced': {
      const open = n.attrs.open ?? '(';
      const close = n.attrs.close ?? ')';
      return `\\left${open === '{' ? '\\{' : open}${kids.map(texOf).join(n.attrs.separators ?? ',')}\\right${close === '}' ? '\\}' : close}`;
    }
    case 'annotation':
    case 'annotation-xml':
    case 'mphantom':
      return '';
    default:
      throw new UnreadableMath(`the MathML element <${n.name}> has no simple LaTeX form`);
  }
}

/**
 * A `<math>` element as Markdown maths: `$tex$`, or `$$tex$$` when `display="block"`.
 * @throws UnreadableMath when there is no TeX annotation and the simple conversion cannot read it
 */
export function mathToMarkdown(math: XmlElement): string {
  const semantics = childElements(math, 'semantics')[0];
  const annotation = semantics && childElements(semantics, 'annotation').find((a) => /^(application\/x-tex|tex|latex|application\/x-latex)$/i.test((a.attrs.encoding ?? '').trim()));
  const tex = (annotation ? textContent(annotation) : texOf(math)).replace(/\s+/g, ' ').trim();
  if (!tex) return '';
  return math.attrs.display === 'block' ? `$$${tex}$$` : `$${tex}$`;
}
