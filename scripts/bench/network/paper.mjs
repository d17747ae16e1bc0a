/**
 * The network benchmark's paper: 60 mathematics MCQs written the way a WAEC/NECO paper is
 * typed into HallCBT (Markdown with inline LaTeX: fractions, powers, roots, indices,
 * Greek letters), deterministic so every run and every machine moves the same bytes.
 * (It does not use ../shared's real papers, so it runs on a fresh clone too.)
 */

const STEMS = [
  (a, b) => [`Solve for $x$: $${a}x - ${b} = ${a * 3 - b}$.`, ['3', '2', '4', String(a)]],
  (a, b) => [`Simplify $\\frac{${a}}{${b}} + \\frac{1}{${b}}$.`, [`\\frac{${a + 1}}{${b}}`, `\\frac{${a}}{${b + 1}}`, `\\frac{${a + 1}}{${2 * b}}`, `${a + 1}`]],
  (a, b) => [`Evaluate $${a}^{2} - ${b}^{2}$.`, [String(a * a - b * b), String((a - b) ** 2), String(a * a + b * b), String(2 * a - 2 * b)]],
  (a, b) => [`Find the value of $\\sqrt{${a * a}} + \\sqrt{${b * b}}$.`, [String(a + b), String(a * b), String(a * a + b * b), String(Math.abs(a - b))]],
  (a, b) => [`If $\\log_{10} ${10 ** (a % 4 + 1)} = y$, find $y + ${b}$.`, [String((a % 4) + 1 + b), String(a + b), String(b), String(10 + b)]],
  (a, b) => [`A triangle has angles $${a * 5}^\\circ$ and $${b * 5 + 20}^\\circ$. Find the third angle $\\theta$.`, [`${180 - a * 5 - (b * 5 + 20)}^\\circ`, `${90 - a}^\\circ`, `${180 - a * 5}^\\circ`, `${b * 5}^\\circ`]],
  (a, b) => [`Expand $(x + ${a})(x - ${b})$.`, [`x^{2} + ${a - b}x - ${a * b}`, `x^{2} - ${a * b}`, `x^{2} + ${a + b}x + ${a * b}`, `x^{2} - ${a - b}x + ${a * b}`]],
  (a, b) => [`Given $\\sin\\theta = \\frac{${Math.min(a, b)}}{${Math.max(a, b) + 1}}$, which quadrant is $\\theta$ in if $\\cos\\theta < 0$?`, ['second', 'first', 'third', 'fourth']],
  (a, b) => [`The mean of ${a}, ${b}, ${a + b} and $k$ is ${a + b}. Find $k$.`, [String(4 * (a + b) - (2 * a + 2 * b)), String(a + b), String(a * b), String(2 * (a + b))]],
  (a, b) => [`Simplify $\\frac{x^{${a + 2}}}{x^{${a}}} \\times x^{${b}}$.`, [`x^{${b + 2}}`, `x^{${a + b}}`, `x^{${2 * a}}`, `x^{${b}}`]],
];

/** The 60 questions, as POST /questions/bulk takes them. */
export function mathsPaper(count = 60) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const a = 2 + (i % 7);
    const b = 1 + ((i * 3) % 5);
    const [prompt, opts] = STEMS[i % STEMS.length](a, b);
    out.push({
      prompt: `${prompt}`,
      type: 'MCQ',
      marks: 1,
      section: 'Mathematics',
      options: opts.map((t, k) => ({ text: /^[a-z]+$/.test(t) ? t : `$${t}$`, isCorrect: k === 0 })),
    });
  }
  return out;
}
