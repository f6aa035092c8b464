// Where a lint problem is in a document's text. The engine names each problem by its JSON path
// ("answers[1].tolerance_rel: unknown field; ..."); the authoring view selects that place in the
// text. The text is scanned only to find places (never evaluated): a tolerant reader that
// records, for every path it meets, where its member or element starts and ends, and stops
// quietly where the text stops being JSON.

/** The path a lint problem names ("answers[1].tolerance_rel"), or '' when it names none. */
export function problemPath(problem) {
  const m = /^([A-Za-z_$][\w$-]*(?:\[\d+\]|\.[\w$-]+)*): /.exec(String(problem));
  return m ? m[1] : '';
}

/** The path's segments: "answers[1].unit" -> ["answers", 1, "unit"]. */
export function pathSegments(path) {
  const out = [];
  for (const m of String(path).matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

const key = (segments) => segments.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');

/**
 * Every path of `text` -> {start, end}: a member from its key's opening quote to the end of its
 * value, an element its value. Whatever follows a syntax error is not in the map.
 */
export function placesOf(text) {
  const places = new Map();
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const fail = () => {
    throw new SyntaxError('stop');
  };
  function string() {
    if (text[i] !== '"') fail();
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    let value;
    try {
      value = JSON.parse(text.slice(start, i));
    } catch {
      value = text.slice(start + 1, i - 1);
    }
    return value;
  }
  function value(path) {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        const keyStart = i;
        const name = string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        const inner = [...path, name];
        value(inner);
        places.set(key(inner), { start: keyStart, end: i });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let n = 0; ; n++) {
        ws();
        const start = i;
        const inner = [...path, n];
        value(inner);
        places.set(key(inner), { start, end: i });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return void string();
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) fail();
    i += m[0].length;
  }
  try {
    value([]);
  } catch {
    // the text stops being JSON here: the places found so far stand
  }
  return places;
}

/**
 * The place of `path` in `text` ({start, end}, indices of the string), or of its deepest part
 * found there (a field that is missing: the object that misses it); null when none is.
 */
export function locate(text, path) {
  const places = placesOf(text);
  const segments = pathSegments(path);
  for (let n = segments.length; n > 0; n--) {
    const at = places.get(key(segments.slice(0, n)));
    if (at) return at;
  }
  return null;
}

/**
 * Line and column of a JSON syntax error as the engine reports it ("parse error at line 16,
 * column 15: ..."; the column counts UTF-8 bytes): {line, column, offset, message}, the column
 * in characters as an editor counts them and `offset` the index in `text`; null when `problem`
 * is not one.
 */
export function syntaxPlace(text, problem) {
  const m = /line (\d+), column (\d+): (.*)$/s.exec(String(problem));
  if (!/not valid JSON/.test(String(problem)) || !m) return null;
  const line = Number(m[1]);
  const bytes = Number(m[2]);
  const lines = text.split('\n');
  let offset = 0;
  for (let k = 0; k < line - 1 && k < lines.length; k++) offset += lines[k].length + 1;
  const own = lines[Math.min(line, lines.length) - 1] ?? '';
  const encoder = new TextEncoder();
  let chars = 0;
  let used = 0;
  for (const ch of own) {
    if (used >= bytes) break;
    used += encoder.encode(ch).length;
    chars += ch.length;
  }
  // The engine's column is the last character it read (one past the end at the end of input).
  const column = Math.max(1, chars + (used < bytes ? 1 : 0));
  return { line, column, offset: Math.min(text.length, offset + column - 1), message: m[3] };
}
