// exercises/SCHEMA.md, generated from exercises/schema.json: every object kind with a table of its
// fields (type, whether required, the schema's description), the units by dimension, the request
// ops and what each cost op's fields mean (each collective's `bytes` included).
//   node tests/node/schema_doc.mjs --write   rewrites the section between its markers in exercises/SCHEMA.md
// tests/node/schema.test.mjs checks that the file holds what this renders.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BEGIN = '<!-- schema: generated from exercises/schema.json by `node tests/node/schema_doc.mjs --write`; do not edit -->';
export const END = '<!-- schema: end -->';

const cell = (text) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text) => '`' + text + '`';
const refName = (s) => (s && s.$ref ? s.$ref.replace('#/definitions/', '') : null);

// What a subschema holds, in words: "integer 1-999", "array of `param`", "`text`".
function typeOf(s, defs) {
  if (!s) return '';
  const ref = refName(s);
  if (ref) {
    const d = defs[ref];
    // A plain scalar definition reads better as what it holds; objects and forms by their name.
    if (d && !d.properties && !d.anyOf && !d.oneOf && !d.allOf && !d.additionalProperties && d.type !== 'array') return typeOf(d, defs);
    return code(ref);
  }
  if (s.enum) return 'one of ' + s.enum.map((x) => code(x === '' ? '""' : x)).join(', ');
  if (s.anyOf || s.oneOf) return (s.anyOf || s.oneOf).map((b) => typeOf(b, defs)).join(' or ');
  const types = [].concat(s.type ?? []);
  if (types.includes('array')) {
    const of = s.items ? typeOf(s.items, defs) : 'anything';
    if (s.minItems === 2 && s.maxItems === 2) return `a pair, each ${of}`;
    return `${s.minItems ? 'non-empty ' : ''}array of ${of.replace(/^(number|string|boolean|integer)( |,|$)/, '$1s$2')}`;
  }
  if (types.includes('object') && s.additionalProperties && typeof s.additionalProperties === 'object')
    return `{key: ${typeOf(s.additionalProperties, defs)}}`;
  let words = types.join(' or ');
  if (s.minimum !== undefined && s.maximum !== undefined) words += ` ${s.minimum}-${s.maximum}`;
  else if (s.exclusiveMinimum !== undefined && s.maximum !== undefined) words += ` in (${s.exclusiveMinimum}, ${s.maximum}]`;
  if (s.pattern) words += ` matching ${code(s.pattern)}`;
  if (s.minLength) words = 'non-empty ' + words;
  return words || 'anything';
}

function describe(s, defs) {
  if (s.description) return s.description;
  const ref = refName(s);
  return ref && defs[ref] ? describe(defs[ref], defs) : '';
}

function fieldTable(s, defs) {
  const required = new Set(s.required ?? []);
  const rows = ['| field | type | meaning |', '|---|---|---|'];
  for (const [name, p] of Object.entries(s.properties ?? {}))
    rows.push(`| ${code(name)}${required.has(name) ? ' (required)' : ''} | ${cell(typeOf(p, defs))} | ${cell(describe(p, defs))} |`);
  return rows.join('\n');
}

function enumTable(values, descriptions, head) {
  const rows = [`| ${head} | meaning |`, '|---|---|'];
  values.forEach((v, i) => rows.push(`| ${code(v)} | ${cell(descriptions?.[i])} |`));
  return rows.join('\n');
}

const UNIT_GROUPS = [
  ['unit_time', 'time', 'seconds'],
  ['unit_bytes', 'bytes', 'bytes'],
  ['unit_bandwidth', 'bandwidth (params only)', 'bytes/s'],
  ['unit_fraction', 'fraction', 'a fraction, 0.08 = 8%'],
  ['unit_count', 'count', 'a count'],
  ['unit_plain', 'plain', 'a number'],
];

function unitsSection(defs) {
  const out = [`## Units and dimensions (${code('unit')})`, '', defs.unit.description, ''];
  out.push('| dimension | base unit | units |', '|---|---|---|');
  for (const [name, dim, base] of UNIT_GROUPS) {
    const d = defs[name];
    const list = (d.enum ?? d.anyOf[0].enum).filter((u) => u !== '').map(code).join(', ');
    const pattern = d.anyOf?.find((b) => b.pattern)?.pattern;
    out.push(`| ${dim} | ${base} | ${cell(list + (pattern ? `; also K, k, M or G before a count word (${code(pattern)})` : ''))} |`);
  }
  return out.join('\n');
}

function requestSection(defs) {
  const r = defs.request;
  const op = r.properties.op;
  const out = [`## ${code('request')}`, '', r.description, '', enumTable(op.enum, op.enumDescriptions, '`op`'), ''];
  for (const rule of r.allOf) {
    const name = rule.if.properties.op.const;
    out.push(`**${code(name)}** (required: ${(rule.then.required ?? []).map(code).join(', ')})`, '', fieldTable(rule.then, defs), '');
    if (rule.then.allOf) {
      out.push(`What ${code('bytes')} is for each collective, and its algorithms (the first is the default):`, '');
      out.push('| collective | algorithms | `bytes` |', '|---|---|---|');
      for (const c of rule.then.allOf) {
        const p = c.then.properties;
        const algos = p.algorithm.anyOf.find((b) => b.enum).enum.map(code).join(', ');
        out.push(`| ${code(c.if.properties.collective.const)} | ${algos} | ${cell(p.bytes.description)} |`);
      }
      out.push('');
    }
  }
  out.push(`A ${code('link')} field: ${defs.link.description}`, '');
  out.push(`## ${code('field')}`, '', defs.field.description, '', defs.field_path.description, '');
  out.push('| op | field | meaning |', '|---|---|---|');
  for (const rule of defs.fields_of_ops.allOf) {
    const name = rule.if.properties.request.properties.op.const;
    const field = rule.then.properties.field;
    const f = field.enum ? field : field.anyOf.find((b) => b.enum);
    f.enum.forEach((v, i) => out.push(`| ${code(name)} | ${code(v)} | ${cell(f.enumDescriptions[i])} |`));
  }
  return out.join('\n');
}

// Definitions shown in the sections of others: the units in one table, the request's parts with it.
const FOLDED = new Set([...UNIT_GROUPS.map((g) => g[0]), 'field', 'fields_of_ops', 'binding', 'request_bytes',
  'request_integer', 'efficiency', 'link']);

export function render(schema) {
  const defs = schema.definitions;
  const out = [
    BEGIN,
    '',
    `${code('exercises/schema.json')} (JSON Schema draft-07) is the one description of an exercise document. Each`,
    `shipped document names it (${code('"$schema": "./schema.json"')}), so an editor such as VS Code completes, explains`,
    'and validates every field as it is typed; lint and `exercise.load` take the field names of every',
    'object from it (`core/exercises/fields.cpp`, the schema embedded at build time with only the keywords that walk reads), so',
    'adding a field means adding it there. `tests/unit_schema.cpp` holds the C++ checks and the schema to',
    'each other; `tests/node/schema.test.mjs` validates every shipped document and fixture with ajv and',
    'checks that each shape mistake of `tests/fixtures/lint/mistakes.json` fails it. What follows is',
    'generated from the schema.',
    '',
    '## The document',
    '',
    schema.description,
    '',
    fieldTable(schema, defs),
    '',
  ];
  for (const [name, d] of Object.entries(defs)) {
    if (FOLDED.has(name)) continue;
    if (name === 'unit') {
      out.push(unitsSection(defs), '');
      continue;
    }
    if (name === 'request') {
      out.push(requestSection(defs), '');
      continue;
    }
    out.push(`## ${code(name)}`, '', describe(d, defs), '');
    if (d.properties) out.push(fieldTable(d, defs), '');
    else if (d.enum) out.push(enumTable(d.enum, d.enumDescriptions, 'value'), '');
    else if (d.oneOf && !d.type) out.push('Forms: ' + d.oneOf.map((b) => (b.required ?? []).map(code).join(' + ')).join('; ') + '.', '');
    else out.push(`Type: ${typeOf({ ...d, description: undefined }, defs)}.`, '');
  }
  out.push(END);
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** The path of the generated reference, beside the schema. */
export const SCHEMA_DOC = `${ROOT}exercises/SCHEMA.md`;

/** `text` (the file) with the section between the markers replaced by `section`. */
export function withSection(text, section) {
  const a = text.indexOf(BEGIN), b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error('exercises/SCHEMA.md has no schema section markers');
  return text.slice(0, a) + section + text.slice(b + END.length);
}

if (process.argv.includes('--write')) {
  const schema = JSON.parse(readFileSync(`${ROOT}exercises/schema.json`, 'utf8'));
  writeFileSync(SCHEMA_DOC, withSection(readFileSync(SCHEMA_DOC, 'utf8'), render(schema)));
  console.log('exercises/SCHEMA.md: schema section written');
}
