#!/usr/bin/env node
// Single-file build for file:// use: inlines the stylesheet, the page's ES modules, the engine
// (commlab.js, commlab_wasm.mjs and the .wasm as base64) and the exercise documents
// (exercises/index.json and the files it lists) into <dist>/commlab-single.html. No tools needed:
// each module becomes a function scope returning its exports, in dependency order. The strict
// CSP stays strict: the inline script and style are allowed by their sha256 hashes.
//
// Usage: node web/tools/build-single.mjs dist
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const dist = process.argv[2];
if (!dist) {
  console.error('usage: node web/tools/build-single.mjs <dist folder>');
  process.exit(2);
}

const IMPORT_RE = /^import\s+(.+?)\s+from\s+['"](\.{1,2}\/[^'"]+)['"];?[ \t]*$/gm;

const modules = new Map(); // path -> {name, code, deps}
const order = [];

function moduleName(path) {
  return `__mod_${relative(dist, path).replace(/[^a-zA-Z0-9]/g, '_')}`;
}

function bindings(clause, source) {
  // `X`, `{ a, b as c }`, `X, { a }`, `* as ns`
  const out = [];
  const named = clause.match(/\{([^}]*)\}/);
  const rest = clause.replace(/\{[^}]*\}/, '').replace(/,/g, ' ').trim();
  const ns = rest.match(/^\*\s+as\s+(\w+)$/);
  if (ns) out.push(`const ${ns[1]} = ${source};`);
  else if (rest) out.push(`const ${rest} = ${source}.default;`);
  if (named) {
    const parts = named[1].split(',').map((s) => s.trim()).filter(Boolean)
      .map((s) => s.replace(/\s+as\s+/, ': '));
    out.push(`const { ${parts.join(', ')} } = ${source};`);
  }
  return out.join(' ');
}

function load(path) {
  path = normalize(path);
  if (modules.has(path)) return modules.get(path);
  const entry = { name: moduleName(path), code: '', deps: [] };
  modules.set(path, entry);
  let code = readFileSync(path, 'utf8');
  code = code.replace(IMPORT_RE, (m, clause, spec) => {
    const dep = load(join(dirname(path), spec));
    entry.deps.push(dep);
    return bindings(clause, dep.name);
  });
  // import('./x.js') of a relative path: that module inlined too, handed over already loaded.
  code = code.replace(/\bimport\((['"])(\.{1,2}\/[^'"]+)\1\)/g, (m, q, spec) => {
    const dep = load(join(dirname(path), spec));
    entry.deps.push(dep);
    return `Promise.resolve(${dep.name})`;
  });
  const exported = [];
  code = code.replace(/^export\s+default\s+/m, () => {
    exported.push('default: __default');
    return 'const __default = ';
  });
  code = code.replace(/^export\s+((?:async\s+)?function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)/gm,
    (m, kind, name) => {
      exported.push(name);
      return `${kind} ${name}`;
    });
  code = code.replace(/^export\s*\{([^}]*)\};?/gm, (m, list) => {
    for (const item of list.split(',').map((s) => s.trim()).filter(Boolean)) {
      const [local, as] = item.split(/\s+as\s+/);
      exported.push(as ? `${as}: ${local}` : local);
    }
    return '';
  });
  if (/^\s*(import|export)\s/m.test(code)) {
    throw new Error(`${path}: an import or export form this builder does not handle`);
  }
  entry.code = `const ${entry.name} = (() => {\n${code}\nreturn { ${exported.join(', ')} };\n})();\n`;
  order.push(entry);
  return entry;
}

const engine = load(join(dist, 'engine', 'commlab.js'));
const main = load(join(dist, 'app', 'main.js'));
let script = order.map((m) => m.code).join('\n');
// The engine's .wasm travels as base64 and is handed over as wasmBinary (nothing is fetched);
// a SINGLE_FILE build of the engine has it inside commlab_wasm.mjs already.
const wasmPath = join(dist, 'engine', 'commlab_wasm.wasm');
let engineRef = engine.name;
const inlineWasm = existsSync(wasmPath);
if (inlineWasm) {
  const wasm = readFileSync(wasmPath).toString('base64');
  script += `\nconst __wasmBinary = () => Uint8Array.from(atob('${wasm}'), (c) => c.charCodeAt(0));\n`;
  engineRef = `{ ...${engine.name}, loadCommlab: (o = {}) => ${engine.name}.loadCommlab({ ...o, wasmBinary: __wasmBinary() }) }`;
}
// The exercise documents as the page would fetch them (nothing is fetched from file://).
const exercisesDir = join(dist, 'exercises');
const listed = JSON.parse(readFileSync(join(exercisesDir, 'index.json'), 'utf8')).files;
if (!Array.isArray(listed)) throw new Error('exercises/index.json: no "files" list');
// All the build's own, so installed as checked at build (engine/documents.js installDocuments).
const documents = { files: listed.map((file) => ({ file, text: readFileSync(join(exercisesDir, file), 'utf8') })), problems: [], copied: listed };
script += `\n${main.name}.start(() => Promise.resolve(${engineRef}), ${JSON.stringify(documents)});\n`;
script = script.replace(/<\/(script)/gi, '<\\/$1');

const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
// start.js (the classic script in <head>) travels inline too, allowed by its own hash.
const startScript = readFileSync(join(dist, 'start.js'), 'utf8').replace(/<\/(script)/gi, '<\\/$1');

let html = readFileSync(join(dist, 'index.html'), 'utf8');
// Every stylesheet (the page's and uPlot's) inline, each allowed by its hash.
const styles = [];
html = html.replace(/<link rel="stylesheet" href="([^"]+)">/g, (m, href) => {
  const css = readFileSync(join(dist, href), 'utf8');
  styles.push(sha(css));
  return `<style>${css}</style>`;
});
if (!styles.length) throw new Error('index.html: no stylesheet link found');
// No worker file from file://: door.js runs heavy requests on the main thread there.
const csp = `default-src 'none'; script-src ${sha(startScript)} ${sha(script)} 'wasm-unsafe-eval'; style-src ${styles.join(' ')}; `
  // A SINGLE_FILE engine fetches its own data: URL before it falls back to decoding it.
  + `connect-src ${inlineWasm ? "'none'" : 'data:'}; img-src data:; object-src 'none'; base-uri 'none'; form-action 'none'`;
const replaceOnce = (re, text, what) => {
  if (!re.test(html)) throw new Error(`index.html: ${what} not found`);
  html = html.replace(re, () => text);
};
// The other languages' prerendered cards (cards-LANG.html, named on <html>) inline after the
// first language's: nothing to fetch, and start.js finds no file named.
const namedCards = html.match(/<html lang="en" data-cards="([^"]*)">/);
if (namedCards) {
  const cards = namedCards[1].split(' ').map((pair) => readFileSync(join(dist, pair.split(':')[1]), 'utf8').trimEnd());
  html = html.replace(namedCards[0], '<html lang="en">');
  replaceOnce(/\n {2}<\/main>/, `\n${cards.join('\n')}\n  </main>`, 'the end of <main>');
}
if (/data-cards=/.test(html)) throw new Error('index.html: the other languages\' cards were not put inline');
replaceOnce(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/,
  `<meta http-equiv="Content-Security-Policy" content="${csp}">`, 'the CSP meta tag');
html = html.replace(/^\s*<link rel="modulepreload"[^>]*>\n/gm, ''); // the engine is inline
// Nothing is fetched from file://: no preloads (the page asks the inline engine instead).
html = html.replace(/^\s*<!--[^>]*-->\n(?=\s*<link rel="preload")/gm, '').replace(/^\s*<link rel="preload"[^>]*>\n/gm, '');
replaceOnce(/<script src="start\.js"><\/script>/, `<script>${startScript}</script>`, 'the start script');
replaceOnce(/<script type="module" src="boot\.js"><\/script>/,
  `<script type="module">${script}</script>`, 'the boot script');
const out = join(dist, 'commlab-single.html');
writeFileSync(out, html);
console.log(`wrote ${out} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KB, ${order.length} modules)`);
