// Prose with $...$ math -> DOM nodes, the math as native MathML. Covers the TeX the lecture's
// exercises use (fractions, sub/superscripts, Greek, \text, \times, \approx, \log, \lceil ...);
// anything else is shown as written, never thrown.

const MATHML = 'http://www.w3.org/1998/Math/MathML';

const SYMBOLS = {
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', Delta: 'Δ', epsilon: 'ε', theta: 'θ',
  lambda: 'λ', mu: 'μ', pi: 'π', rho: 'ρ', sigma: 'σ', Sigma: 'Σ', tau: 'τ', phi: 'φ',
  omega: 'ω', ell: 'ℓ', infty: '∞',
};
const OPERATORS = {
  times: '×', cdot: '·', approx: '≈', le: '≤', leq: '≤', ge: '≥', geq: '≥', ne: '≠',
  neq: '≠', gg: '≫', ll: '≪', to: '→', rightarrow: '→', pm: '±', div: '÷', sim: '∼',
  lceil: '⌈', rceil: '⌉', lfloor: '⌊', rfloor: '⌋', sum: '∑', lvert: '|', rvert: '|',
};
const FUNCTIONS = ['log', 'ln', 'min', 'max', 'exp'];
const SPACES = { ',': '\u2009', ';': '\u2005', ':': '\u2005', ' ': '\u00a0', quad: '\u2003', '!': '' };

function el(name, children = [], attrs = {}) {
  const node = document.createElementNS(MATHML, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function leaf(name, text) {
  const node = el(name);
  node.textContent = text;
  return node;
}

/** Parses TeX `src` into MathML nodes. */
function parse(src) {
  let i = 0;

  function readGroupText() {
    // {...} as raw text (for \text and friends)
    if (src[i] !== '{') return '';
    let depth = 0;
    const start = i + 1;
    for (; i < src.length; i++) {
      if (src[i] === '{') depth++;
      else if (src[i] === '}' && --depth === 0) break;
    }
    const text = src.slice(start, i);
    i++;
    return text;
  }

  function atom() {
    while (src[i] === ' ') i++;
    if (i >= src.length) return null;
    const c = src[i];
    if (c === '{') {
      i++;
      const items = sequence('}');
      i++;
      return items.length === 1 ? items[0] : el('mrow', items);
    }
    if (c === '\\') {
      i++;
      let name = '';
      if (/[a-zA-Z]/.test(src[i] ?? '')) {
        while (/[a-zA-Z]/.test(src[i] ?? '')) name += src[i++];
      } else {
        name = src[i++] ?? '';
      }
      if (name === 'frac' || name === 'dfrac' || name === 'tfrac') {
        const num = atom() ?? el('mrow');
        const den = atom() ?? el('mrow');
        return el('mfrac', [num, den]);
      }
      if (name === 'sqrt') return el('msqrt', [atom() ?? el('mrow')]);
      if (['text', 'mathrm', 'textrm', 'operatorname', 'mbox'].includes(name)) {
        while (src[i] === ' ') i++;
        return leaf('mtext', readGroupText());
      }
      if (name === 'left' || name === 'right' || name === 'big' || name === 'Big') return atom();
      if (name in SYMBOLS) return leaf('mi', SYMBOLS[name]);
      if (FUNCTIONS.includes(name)) return leaf('mi', name);
      if (name in OPERATORS) return leaf('mo', OPERATORS[name]);
      if (name in SPACES) return leaf('mtext', SPACES[name]);
      if ('{}%$_#&'.includes(name)) return leaf('mo', name);
      return leaf('mtext', `\\${name}`);
    }
    i++;
    if (/[0-9.]/.test(c)) {
      let num = c;
      while (/[0-9.,]/.test(src[i] ?? '') && !(src[i] === ',' && !/[0-9]/.test(src[i + 1] ?? ''))) {
        num += src[i++];
      }
      return leaf('mn', num);
    }
    if (/[a-zA-Z]/.test(c)) return leaf('mi', c);
    if (c === '}') return null;
    return leaf('mo', c === '-' ? '−' : c);
  }

  function sequence(end) {
    const items = [];
    while (i < src.length && src[i] !== end) {
      let base = atom();
      if (base === null) {
        if (src[i] === end) break;
        continue;
      }
      for (;;) {
        while (src[i] === ' ') i++;
        if (src[i] === '_' || src[i] === '^') {
          const kind = src[i++];
          const script = atom() ?? el('mrow');
          if (kind === '_' && src[i] === '^') {
            i++;
            base = el('msubsup', [base, script, atom() ?? el('mrow')]);
          } else if (kind === '^' && src[i] === '_') {
            i++;
            const sub = atom() ?? el('mrow');
            base = el('msubsup', [base, sub, script]);
          } else {
            base = el(kind === '_' ? 'msub' : 'msup', [base, script]);
          }
        } else break;
      }
      items.push(base);
    }
    return items;
  }

  return sequence(undefined);
}

/** One inline formula as a <math> element. */
export function mathElement(tex) {
  let items;
  try {
    items = parse(tex);
  } catch {
    items = [leaf('mtext', tex)];
  }
  const math = el('math', [el('mrow', items)]);
  math.setAttribute('alttext', tex);
  return math;
}

// Formula pieces the exercise texts write in Unicode, as TeX, so they render as MathML too.
const UNICODE_MATH = [
  [/⌈log₂\s?k⌉/, '\\lceil \\log_2 k \\rceil'],
  [/log₂\s?k/, '\\log_2 k'],
  [/n₁\/₂/, 'n_{1/2}'],
  [/α/, '\\alpha'],
  [/β/, '\\beta'],
];
const UNICODE_RE = new RegExp(UNICODE_MATH.map(([re]) => re.source).join('|'), 'g');

function appendProse(frag, text) {
  let last = 0;
  for (const m of text.matchAll(UNICODE_RE)) {
    if (m.index > last) frag.append(document.createTextNode(text.slice(last, m.index)));
    const tex = UNICODE_MATH.find(([re]) => new RegExp(`^(?:${re.source})$`).test(m[0]))[1];
    const math = mathElement(tex);
    math.setAttribute('alttext', m[0]);
    frag.append(math);
    last = m.index + m[0].length;
  }
  if (last < text.length) frag.append(document.createTextNode(text.slice(last)));
}

/** Prose with $...$ segments (and Unicode α, β, n₁/₂, log₂k) -> text and <math> nodes. */
export function renderRich(text) {
  const frag = document.createDocumentFragment();
  const parts = String(text ?? '').split(/(\$[^$]+\$)/);
  for (const part of parts) {
    if (part.length > 2 && part.startsWith('$') && part.endsWith('$')) {
      frag.append(mathElement(part.slice(1, -1)));
    } else if (part) {
      appendProse(frag, part);
    }
  }
  return frag;
}

/** Text with paragraphs (blank-line separated) and $...$ math, into `container`. */
export function renderParagraphs(container, text) {
  container.replaceChildren();
  for (const para of String(text ?? '').split(/\n\s*\n/)) {
    if (!para.trim()) continue;
    const p = document.createElement('p');
    const lines = para.split('\n');
    lines.forEach((line, k) => {
      if (k) p.append(document.createElement('br'));
      p.append(renderRich(line));
    });
    container.append(p);
  }
}
