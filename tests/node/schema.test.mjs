// exercises/schema.json read by a standard validator (ajv, a devDependency bundled nowhere in the
// page): every shipped document and fixture validates, each shape mistake of
// tests/fixtures/lint/mistakes.json fails it at the mistake's path and every other row passes;
// every field is described for an editor's hover; exercises/SCHEMA.md is what the schema says.
// tests/unit_schema.cpp holds the engine's own checks to the same schema.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { render, withSection, SCHEMA_DOC } from './schema_doc.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMA_PATH = join(ROOT, 'exercises/schema.json');
const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'));
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

// Strict about the schema itself (unknown keywords are errors) but for strictTypes: the
// if/then refinements leave the type to the subschema they refine. VS Code's own keywords are
// annotations.
function validator() {
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  ajv.addKeyword({ keyword: 'enumDescriptions', schemaType: 'array' });
  ajv.addKeyword({ keyword: 'defaultSnippets', schemaType: 'array' });
  return ajv.compile(schema);
}
const validate = validator();

const documents = [
  ...readdirSync(join(ROOT, 'exercises')).filter((f) => /^\d+\.json$/.test(f)).map((f) => join(ROOT, 'exercises', f)),
  ...readdirSync(join(ROOT, 'tests/fixtures/exercises')).filter((f) => f.endsWith('.json')).map((f) => join(ROOT, 'tests/fixtures/exercises', f)),
];

const errorsText = (errors) => (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');

test('every shipped document and fixture validates and names the schema', () => {
  assert.ok(documents.length >= 9, documents.join(', '));
  for (const path of documents) {
    const doc = readJson(path);
    assert.ok(validate(doc), `${path}:\n${errorsText(validate.errors)}`);
    assert.equal(Object.keys(doc)[0], '$schema', `${path}: "$schema" comes first`);
    assert.equal(resolve(dirname(path), doc.$schema), SCHEMA_PATH, `${path}: "$schema" is the path of exercises/schema.json`);
  }
});

// The lint table's patches, as tests/unit_lint.cpp applies them to the ninth exercise.
function patched(row) {
  const doc = readJson(join(ROOT, 'tests/fixtures/exercises/09.json'));
  doc.id = 41;
  for (const [op, pointer, value] of row.patch) {
    const keys = pointer.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop();
    let at = doc;
    for (const k of keys) at = at[k];
    if (op === 'set') at[last] = structuredClone(value);
    else if (op === 'remove') delete at[last];
    else if (op === 'append') at[last].push(structuredClone(value));
    else throw new Error(`unknown patch op ${op}`);
  }
  return doc;
}

// A lint path as a JSON pointer: answers[1].tolerence_rel -> /answers/1/tolerence_rel.
const pointerOf = (path) => '/' + path.replace(/\[(\d+)\]/g, '.$1').split('.').join('/');

test('each shape mistake of the lint table fails the schema where lint finds it; every other row validates', () => {
  const rows = readJson(join(ROOT, 'tests/fixtures/lint/mistakes.json')).rows;
  const shape = rows.filter((r) => r.shape);
  assert.ok(shape.length >= 10 && shape.length < rows.length, `${shape.length} of ${rows.length} rows are shape mistakes`);
  for (const row of rows) {
    const ok = validate(patched(row));
    if (!row.shape) {
      assert.ok(ok, `${row.name}: not a shape mistake, yet the schema refuses it:\n${errorsText(validate.errors)}`);
      continue;
    }
    assert.equal(ok, false, `${row.name}: the schema accepts it`);
    for (const { path } of row.expect) {
      const at = pointerOf(path);
      const found = validate.errors.some((e) =>
        e.instancePath === at || (e.params.additionalProperty !== undefined && `${e.instancePath}/${e.params.additionalProperty}` === at));
      assert.ok(found, `${row.name}: no error at ${at}:\n${errorsText(validate.errors)}`);
    }
  }
});

test('the schema refuses what the figure forms forbid', () => {
  const base = () => patched({ patch: [] });
  const refused = (change) => {
    const doc = base();
    change(doc);
    return !validate(doc);
  };
  assert.equal(refused(() => {}), false);
  assert.ok(refused((d) => { d.compute.values[2].text = { en: 'x', zh: 'x' }; }), 'two forms at once (expr and text)');
  assert.ok(refused((d) => { delete d.compute.values[0].field; }), 'a request without its field');
  assert.ok(refused((d) => { d.compute.values[2].if = 'devices'; }), 'if without text');
  assert.ok(refused((d) => { d.solver = 3; }), 'a field the schema does not have (no C++ solver)');
  assert.ok(refused((d) => { delete d.compute; }), 'no compute section');
  assert.ok(refused((d) => { d.compute.values[5].field = 'time'; }), 'a field the allreduce op does not answer');
  assert.ok(refused((d) => { d.compute.values[5].request.algorithm = 'rings'; }), 'an unknown all-reduce algorithm');
  assert.ok(refused((d) => { d.answers[0].unit = 'MB'; }), 'a bytes unit on a time answer');
  assert.ok(refused((d) => { d.params[0].default = 8.5; }), 'an integer param of 8.5');
  assert.equal(refused((d) => { d.compute.values[5].request.algorithm = '$algorithm'; }), false, 'a bound algorithm');
  assert.equal(refused((d) => { d.params[1].unit = 'K tokens'; d.params[1].kind = 'integer'; }), false, 'K tokens');
  // The two newer forms, as specified: a `cases` figure (a value and an answer) and compute.ranges.
  const cond = { left: 'values.ring_time_s', op: '<', right: 'values.rd_time_s' };
  assert.equal(refused((d) => {
    d.compute.values.push({ id: 'faster', cases: [{ when: cond, value: 'yes' }, { when: [cond, cond], value: true }, { value: 'no' }] });
    d.compute.answers.best = { cases: [{ when: cond, value: 'ring' }, { value: 'recursive_doubling' }] };
    d.compute.ranges = { ring: { when: [cond], lo: '$ring_time_s * 0.9', hi: { expr: '$ring_time_s' } }, recursive_doubling: { lo: 0, hi: 1 } };
  }), false, 'cases and ranges');
  assert.ok(refused((d) => { d.compute.values.push({ id: 'x', cases: [{ when: { ...cond, why: { en: '', zh: '' } }, value: 1 }, { value: 2 }] }); }),
    'a case condition with a why');
  assert.ok(refused((d) => { d.compute.ranges = { ring: { lo: 0 } }; }), 'a range without hi');
});

// Every field an editor completes says what it is: a description on the field or on the
// definition it names, and one per enum value where the schema lists them.
test('every field and definition is described', () => {
  const defs = schema.definitions;
  const described = (s) => Boolean(s.description) || Boolean(s.$ref && defs[s.$ref.replace('#/definitions/', '')]?.description);
  const missing = [];
  const walk = (s, where) => {
    if (Array.isArray(s)) return s.forEach((x, i) => walk(x, `${where}[${i}]`));
    if (!s || typeof s !== 'object') return;
    for (const [name, p] of Object.entries(s.properties ?? {})) {
      if (!described(p) && !where.includes('/if')) missing.push(`${where}.properties.${name}`);
    }
    if (s.enum && s.enumDescriptions) assert.equal(s.enum.length, s.enumDescriptions.length, `${where}: one description per value`);
    for (const [k, v] of Object.entries(s)) if (k !== 'enum' && k !== 'const' && k !== 'defaultSnippets') walk(v, `${where}/${k}`);
  };
  walk(schema, '#');
  // A refinement (the then/else of an if) may restate a field only to narrow it; the fields a
  // request op adds are its own, described.
  assert.deepEqual(missing.filter((m) => !/\/(then|else)[./]/.test(m)), []);
  for (const rule of defs.request.allOf)
    for (const [name, p] of Object.entries(rule.then.properties)) assert.ok(described(p), `${rule.if.properties.op.const}.${name}`);
  for (const [name, d] of Object.entries(defs)) assert.ok(d.description, `definition ${name} has no description`);
  assert.ok(schema.description);
});

test('exercises/SCHEMA.md is generated from the schema and current', () => {
  const doc = readFileSync(SCHEMA_DOC, 'utf8');
  const section = render(schema);
  assert.equal(withSection(doc, section), doc, 'exercises/SCHEMA.md is stale: run node tests/node/schema_doc.mjs --write');
  // What the section must say, from the schema: each collective's bytes, units, format specifiers.
  for (const words of ['allgather: the whole gathered buffer', 'reduce_scatter: each device\'s whole input', '{values.wire_time_s:us}',
    '| time | seconds |', '`nice`', '`one_of`', '`presets`', '`cases`', '`ranges`'])
    assert.ok(section.includes(words), words);
});
