/**
 * Chemical notation read as words, so a candidate who writes "Ca(HCO3)2", "Ca2+" or
 * "calcium hydrogentrioxocarbonate(IV)" meets a scheme that says "calcium
 * hydrogencarbonate" (and the other way round). Formulas become the names of their
 * cation and anion (IUPAC / WAEC-NECO usage), ions "<element> ion", old systematic
 * names ("tetraoxosulphate(VI)") their common names, "sulfate" "sulphate", and a line
 * with a reaction arrow between formulas also says "equation". Applied alike to the
 * response, the model answer and the rubric. Pure; text that is not notation is unchanged.
 */

const ELEMENTS: Record<string, string> = {
  H: 'hydrogen', He: 'helium', Li: 'lithium', Be: 'beryllium', B: 'boron', C: 'carbon', N: 'nitrogen', O: 'oxygen', F: 'fluorine', Ne: 'neon',
  Na: 'sodium', Mg: 'magnesium', Al: 'aluminium', Si: 'silicon', P: 'phosphorus', S: 'sulphur', Cl: 'chlorine', Ar: 'argon', K: 'potassium', Ca: 'calcium',
  Ti: 'titanium', Cr: 'chromium', Mn: 'manganese', Fe: 'iron', Co: 'cobalt', Ni: 'nickel', Cu: 'copper', Zn: 'zinc', Br: 'bromine', Ag: 'silver',
  Sn: 'tin', I: 'iodine', Ba: 'barium', Pt: 'platinum', Au: 'gold', Hg: 'mercury', Pb: 'lead', Sr: 'strontium',
};
/** Anions by their formula, as written after the cation. */
const ANIONS: Record<string, string> = {
  HCO3: 'hydrogen carbonate', CO3: 'carbonate', HSO4: 'hydrogen sulphate', SO4: 'sulphate', SO3: 'sulphite', NO3: 'nitrate', NO2: 'nitrite',
  PO4: 'phosphate', OH: 'hydroxide', Cl: 'chloride', Br: 'bromide', I: 'iodide', F: 'fluoride', O: 'oxide', S: 'sulphide', CH3COO: 'ethanoate', MnO4: 'manganate',
};
/** Molecules better known by a name than by their elements. */
const MOLECULES: Record<string, string> = {
  H2O: 'water', CO2: 'carbon dioxide', CO: 'carbon monoxide', NH3: 'ammonia', O2: 'oxygen gas', H2: 'hydrogen gas', N2: 'nitrogen gas', Cl2: 'chlorine gas',
  SO2: 'sulphur dioxide', SO3: 'sulphur trioxide', NO2: 'nitrogen dioxide', HCl: 'hydrochloric acid', H2SO4: 'sulphuric acid', HNO3: 'nitric acid', CH4: 'methane',
  H2CO3: 'carbonic acid', NaCl: 'sodium chloride common salt', H2O2: 'hydrogen peroxide',
};
/** Lone symbols that are also everyday words are left alone. */
const WORDLIKE = new Set(['He', 'Be', 'B', 'C', 'N', 'O', 'F', 'P', 'S', 'I', 'K', 'H', 'Co', 'Ti', 'Ni', 'Ag', 'Au', 'Pb', 'Sn', 'Ar', 'Al', 'Na', 'Cr', 'Li', 'Ne', 'Ba']);

const GROUP = String.raw`(?:[A-Z][a-z]?\d*|\((?:[A-Z][a-z]?\d*)+\)\d*)`;
const FORMULA = new RegExp(String.raw`(?<![\p{L}\d])(\d{0,2})(${GROUP}{1,8})(\d?[+-]{1,2})?(?:\((?:aq|s|l|g)\))?(?![\p{L}\d])`, 'gu');

/** The element symbols of a formula in order, or null when one is not an element. */
function symbols(formula: string): string[] | null {
  const out: string[] = [];
  for (const m of formula.matchAll(/[A-Z][a-z]?/g)) {
    if (!(m[0] in ELEMENTS)) return null;
    out.push(m[0]);
  }
  return out;
}

/** Name of one formula ("CaCO3" → "calcium carbonate"), or null when it is not read as notation. */
export function formulaName(formula: string, charge: string | undefined): string | null {
  const syms = symbols(formula);
  if (!syms || !syms.length) return null;
  const hasDigit = /\d/.test(formula) || formula.includes('(');
  // Several symbols: a formula only with a digit, a bracket, a charge or a two-letter symbol ("NaCl"); "UK", "CO", "IV" stay words.
  if (syms.length > 1 && !hasDigit && !charge && !/[a-z]/.test(formula)) return null;
  const molecule = MOLECULES[formula] ?? (syms.length > 1 ? MOLECULES[formula.replace(/\d+$/, '')] : undefined);
  if (molecule && !charge) return molecule;
  if (syms.length === 1) {
    // "Mg2+", "Cl-": an ion; "Ca", "Mg" alone: the element; "I", "He", "Co" without a charge stay words.
    if (charge) return charge.includes('-') && ANIONS[syms[0]!] ? ANIONS[syms[0]!]! : `${ELEMENTS[syms[0]!]} ion`;
    return WORDLIKE.has(syms[0]!) || hasDigit ? null : ELEMENTS[syms[0]!]!;
  }
  const cation = /^(?:\(NH4\)\d*|NH4|[A-Z][a-z]?\d*)/.exec(formula)?.[0];
  if (!cation) return null;
  const cationName = cation.includes('NH4') ? 'ammonium' : ELEMENTS[cation.replace(/\d+/, '')]!;
  const rest = formula.slice(cation.length).replace(/^\((.*)\)\d*$/, '$1');
  const anion = ANIONS[rest] ?? ANIONS[rest.replace(/\d+$/, '')];
  if (anion) return `${cationName} ${anion}${charge ? ' ion' : ''}`;
  return [...new Set(syms.map((s) => ELEMENTS[s]!))].join(' ');
}

/** Old systematic names ("trioxocarbonate(IV)") → common names; "hydrogencarbonate" → "hydrogen carbonate"; "sulfate" → "sulphate". */
function commonNames(text: string): string {
  return text
    .replace(/sulf(?=at|it|ur|id)/gi, 'sulph')
    .replace(/(?:di|tri|tetra)oxo(carbonate|sulphate|nitrate|phosphate|chlorate|manganate)\s?\(\s?(I{1,3}|IV|VI{0,3}|V)\s?\)/gi, (_, base: string, ox: string) => {
      const low = base.toLowerCase();
      if (low === 'sulphate' && ox.toUpperCase() === 'IV') return 'sulphite';
      if (low === 'nitrate' && ox.toUpperCase() === 'III') return 'nitrite';
      return low;
    })
    .replace(/hydrogen(?=carbonate|sulphate|phosphate)/gi, 'hydrogen ');
}

const UNIT_WORDS: Record<string, string> = {
  J: 'joule', kJ: 'kilojoule', kg: 'kilogram', g: 'gram', K: 'kelvin', '°C': 'degree celsius', m: 'metre', cm: 'centimetre', km: 'kilometre', s: 'second',
  N: 'newton', W: 'watt', kW: 'kilowatt', Pa: 'pascal', mol: 'mole', V: 'volt', A: 'ampere', Hz: 'hertz', h: 'hour', Ω: 'ohm',
};
const UNIT = String.raw`(?:kJ|kg|kW|mol|Pa|Hz|cm|km|°C|J|g|K|m|s|N|W|V|A|h|Ω)`;
const POWER = String.raw`(?:⁻¹|⁻²|⁻³|\^\s?-?\d|-\d|²|³)`;
/** A compound unit: two or more unit symbols with "/" or a power between them ("J kg⁻¹ K⁻¹", "J/kgK", "m s^-1", "N/m²"). */
const COMPOUND_UNIT = new RegExp(String.raw`(?<![\p{L}\d])${UNIT}${POWER}?(?:\s?(?:\/|·|\s|\.)?\s?\(?${UNIT}${POWER}?\)?){1,3}(?![\p{L}])`, 'gu');

/** A compound unit in words ("J kg⁻¹ K⁻¹" → "joule per kilogram per kelvin"), or null when it is not one; written after the symbols. */
export function unitWords(expr: string): string | null {
  if (!/\/|⁻|\^|-\d/.test(expr)) return null;
  const parts: string[] = [];
  let per = false;
  for (const m of expr.matchAll(new RegExp(String.raw`(\/)?\s?\(?(${UNIT})(${POWER})?`, 'gu'))) {
    if (m[1]) per = true;
    const power = m[3] ?? '';
    const negative = /⁻|-/.test(power);
    const square = /²|2/.test(power) ? ' squared' : /³|3/.test(power) ? ' cubed' : '';
    parts.push(`${per || negative ? 'per ' : ''}${UNIT_WORDS[m[2]!]}${square}`);
  }
  return parts.length >= 2 ? parts.join(' ') : null;
}

/**
 * Symbols a script writes for words: compound units ("J kg⁻¹ K⁻¹" as "joule per kilogram
 * per kelvin"), subscripts as digits, θ as temperature and Δ as change (school physics),
 * and "Dr"/"Cr" as debit/credit when both are written (book-keeping).
 */
export function readSymbols(text: string): string {
  let out = text.replace(/[₀-₉]/g, (d) => String(d.charCodeAt(0) - 0x2080));
  out = out.replace(COMPOUND_UNIT, (whole) => {
    const words = unitWords(whole);
    return words ? `${whole} ${words}` : whole;
  });
  out = out.replace(/Δ\s?/g, 'change in ').replace(/θ/g, ' temperature θ');
  if (/\bDr\b/.test(out) && /\bCr\b/.test(out)) out = out.replace(/\bDr\b\.?/g, 'debit').replace(/\bCr\b\.?/g, 'credit');
  return out;
}

/** `text` with chemical notation also written as words (see the module header), and symbols read (`readSymbols`). */
export function readNotation(original: string): string {
  const text = readSymbols(original);
  if (!/[A-Z]|oxo|sulf|hydrogen/i.test(text)) return text;
  const named = commonNames(text);
  return named
    .split('\n')
    .map((line) => {
      let formulas = 0;
      const out = line.replace(FORMULA, (whole, coeff: string, formula: string, charge: string | undefined) => {
        const name = formulaName(formula, charge);
        if (!name) return whole;
        formulas++;
        return `${coeff ? `${coeff} ` : ''}${name}`;
      });
      const arrow = /(?:->|→|=>|⟶)/.test(line) && formulas >= 2;
      return arrow && !/\bequation\b/i.test(line) ? `${out} (equation)` : out;
    })
    .join('\n');
}
