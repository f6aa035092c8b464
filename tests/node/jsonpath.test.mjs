// web/util/jsonpath.js: a lint problem's JSON path found in a document's text (the authoring
// view selects it), and a syntax error's line and column as the engine reports them, against the
// real engine's lint of the example document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { locate, pathSegments, problemPath, syntaxPlace } from '../../web/util/jsonpath.js';
import { loadCommlab } from '../../build-wasm/wasm/commlab.js';

const TEXT = readFileSync(fileURLToPath(new URL('../fixtures/exercises/09.json', import.meta.url)), 'utf8');
const lab = await loadCommlab();
const at = (text, path) => {
  const p = locate(text, path);
  return p && text.slice(p.start, p.end);
};

test('a problem names its path; messages without one name none', () => {
  assert.equal(problemPath('answers[1].tolerence_rel: unknown field; did you mean "tolerance_rel"?'), 'answers[1].tolerence_rel');
  assert.equal(problemPath('compute.answers.steps: at the defaults, ...'), 'compute.answers.steps');
  assert.equal(problemPath('id: exercise 3 is built in'), 'id');
  assert.equal(problemPath('not valid JSON: [json.exception.parse_error.101] parse error at line 1'), '');
  assert.equal(problemPath('exercise 10: the engine refused it'), '');
  assert.equal(problemPath('params[0].<script>x</script>: unknown field'), '');
  assert.deepEqual(pathSegments('variant.constraints[1].left'), ['variant', 'constraints', 1, 'left']);
});

test('every path the engine names is found in the text, as the member it names', () => {
  const bad = TEXT.replace('"tolerance_rel": 0.01}', '"tolerence_rel": 0.01}').replace('"min": 2,', '"min": 2, "mni": 3,');
  const { problems } = lab.evaluate({ op: 'exercise.lint', text: bad });
  const paths = problems.map(problemPath);
  assert.ok(paths.includes('answers[0].tolerence_rel') && paths.includes('params[0].mni'), JSON.stringify(problems));
  assert.equal(at(bad, 'answers[0].tolerence_rel'), '"tolerence_rel": 0.01');
  assert.equal(at(bad, 'params[0].mni'), '"mni": 3');
  assert.equal(at(TEXT, 'answers[1].tolerance_rel'), '"tolerance_rel": 0.01');
  assert.equal(at(TEXT, 'variant.constraints[0].op'), '"op": ">"');
  assert.equal(at(TEXT, 'compute.answers.best'), '"best": {"argmin": ["ring", "recursive_doubling"]}');
  assert.equal(at(TEXT, 'params[1].nice[2]'), '256000.0');
  // A field that is missing: the object that misses it.
  assert.match(at(TEXT, 'answers[2].tolerance_rel'), /^\{\n\s+"id": "best"[^]*\}$/);
  assert.equal(locate(TEXT, 'nothing.here'), null);
  // Escapes and non-ASCII keys and strings do not lose the place.
  const odd = '{"a": "x\\"}y", "名": [1, {"b": true}]}';
  assert.equal(at(odd, 'a'), '"a": "x\\"}y"');
  assert.equal(at(odd, '名[1].b'), '"b": true');
});

test('a syntax error: the engine\'s line, its byte column read as characters', () => {
  const broken = TEXT.replace('"zh": "ring 还是递归加倍？"', '"zh": "ring 还是递归加倍？" "x"');
  const [problem] = lab.evaluate({ op: 'exercise.lint', text: broken }).problems;
  assert.match(problem, /line 6, column 42/); // bytes: 7 CJK characters of 3 bytes before it
  const place = syntaxPlace(broken, problem);
  assert.deepEqual([place.line, place.column], [6, 28]);
  assert.equal(broken.slice(place.offset - 2, place.offset + 1), '"x"');
  assert.match(place.message, /^syntax error while parsing object/);
  // At the end of the input: one past the last character.
  const [end] = lab.evaluate({ op: 'exercise.lint', text: '{"id": 9,' }).problems;
  const e = syntaxPlace('{"id": 9,', end);
  assert.deepEqual([e.line, e.column, e.offset], [1, 10, 9]);
  assert.equal(syntaxPlace(TEXT, 'answers[0].unit: does not fit dimension time'), null);
  // A text cut short mid-document still gives the places before the cut.
  assert.equal(at(broken, 'id'), '"id": 9');
});
