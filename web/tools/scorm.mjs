#!/usr/bin/env node
// SCORM 1.2 packages of the built page, for a course platform's gradebook (web/README.md "Course
// platforms", web/README.md "Course platforms"): DIST/scorm/commlab-exercise-N.zip for each exercise the
// site serves and DIST/scorm/commlab-all.zip (the eight in one SCO). Each zip holds
// imsmanifest.xml at its root (SCORM 1.2 CAM: one organization, one item, one SCO resource whose
// href launches the page with scorm=1 and the options) and the page's files as `./lab assemble`
// wrote them, less the precompressed siblings, the single-file build and scorm/ itself.
// Usage: node web/tools/scorm.mjs DIST [--out DIR] [--student-variants] [--seed N]
//          [--reveal never|after-attempt|after-solve] [--hints off] [--calculator off]
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { zipSync } from 'fflate';

const REVEAL = ['never', 'after-attempt', 'after-solve'];
const MAX_SEED = Number.MAX_SAFE_INTEGER; // what the page's address takes (app/address.js)
// The single-file build (for file://) and the siblings compress.mjs wrote: a zip compresses
// itself, and the LMS serves the page's own files.
const LEFT_OUT = new Set(['commlab-single.html']);
const SIBLINGS = ['.gz', '.br'];

/** A clear error for a bad command line: the option, the value, what is allowed. */
class UsageError extends Error {}

/** The options of the command line, checked; throws a UsageError naming what is wrong. */
export function parseArgs(argv) {
  const out = { dist: null, out: null, studentVariants: false, seed: null, reveal: null, hints: null, calculator: null };
  const value = (i, name) => {
    if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new UsageError(`${name} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '--out': out.out = value(i++, a); break;
      case '--student-variants': out.studentVariants = true; break;
      case '--seed': {
        const v = value(i++, a);
        if (!/^\d{1,16}$/.test(v) || Number(v) > MAX_SEED) throw new UsageError(`--seed ${JSON.stringify(v)}: allowed is a whole number from 0 to ${MAX_SEED}`);
        out.seed = Number(v);
        break;
      }
      case '--reveal': {
        const v = value(i++, a);
        if (!REVEAL.includes(v)) throw new UsageError(`--reveal ${JSON.stringify(v)}: allowed are ${REVEAL.join(', ')}`);
        out.reveal = v;
        break;
      }
      case '--hints':
      case '--calculator': {
        const v = value(i++, a);
        if (v !== 'off' && v !== 'on') throw new UsageError(`${a} ${JSON.stringify(v)}: allowed are off, on`);
        out[a.slice(2)] = v === 'off' ? 'off' : null; // on is the page's default: not written
        break;
      }
      default:
        if (a.startsWith('--')) throw new UsageError(`unknown option ${a}: allowed are --out, --student-variants, --seed, --reveal, --hints, --calculator`);
        if (out.dist !== null) throw new UsageError(`one DIST folder only (${JSON.stringify(out.dist)} and ${JSON.stringify(a)} given)`);
        out.dist = a;
    }
  }
  if (out.dist === null) throw new UsageError('the DIST folder (what ./lab assemble wrote) is missing');
  return out;
}

/** The page's query string for a package: exercise (or none: all), scorm, then the options. */
export function launchQuery(exercise, options) {
  const q = new URLSearchParams();
  if (exercise !== null) q.set('exercise', String(exercise));
  // scorm=student: each student's own variant of each exercise, from cmi.core.student_id.
  q.set('scorm', options.studentVariants ? 'student' : '1');
  if (options.seed !== null) q.set('seed', String(options.seed));
  if (options.reveal) q.set('reveal', options.reveal);
  if (options.hints) q.set('hints', options.hints);
  if (options.calculator) q.set('calculator', options.calculator);
  return q.toString();
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * The page's files under `dist` ({path: bytes}, '/'-separated, relative): all but scorm/ (and the
 * output folder), the single-file build and the precompressed siblings of a file that is there.
 * A `.mjs` becomes `.js` and the imports naming it follow: an LMS serves the package's files by
 * their extension, and one that does not know `.mjs` sends it as a type a module is refused with.
 */
export function pageFiles(dist, outDir) {
  const files = {};
  const skip = [join(dist, 'scorm') + sep, `${outDir}${sep}`];
  for (const path of walk(dist)) {
    if (skip.some((s) => path.startsWith(s))) continue;
    const name = relative(dist, path).split(sep).join('/');
    if (LEFT_OUT.has(name)) continue;
    if (SIBLINGS.some((s) => name.endsWith(s) && existsSync(path.slice(0, -s.length)))) continue;
    files[name] = readFileSync(path);
  }
  for (const name of Object.keys(files).filter((n) => n.endsWith('.mjs'))) {
    const to = `${name.slice(0, -4)}.js`;
    if (files[to]) throw new Error(`${name} cannot become ${to}: ${to} exists`);
    const base = name.slice(name.lastIndexOf('/') + 1);
    const toBase = to.slice(to.lastIndexOf('/') + 1);
    let rewritten = 0;
    for (const [n, bytes] of Object.entries(files)) {
      if (!/\.(js|html)$/.test(n)) continue;
      const text = bytes.toString('utf8');
      // Only the module specifiers that name it ('./commlab_wasm.mjs').
      const next = text.replaceAll(`/${base}'`, `/${toBase}'`).replaceAll(`/${base}"`, `/${toBase}"`);
      if (next !== text) {
        files[n] = Buffer.from(next, 'utf8');
        rewritten += 1;
      }
    }
    if (!rewritten) throw new Error(`no file of the page imports ${name}: nothing to rename`);
    files[to] = files[name];
    delete files[name];
  }
  if (!files['index.html']) throw new Error(`${dist} has no index.html: run ./lab assemble first`);
  for (const needed of ['engine/first.json', 'exercises/index.json']) {
    if (!files[needed]) throw new Error(`${dist} has no ${needed}: run ./lab assemble first`);
  }
  return files;
}

const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * imsmanifest.xml of one package (SCORM 1.2 CAM): `title` {en, zh}; `href` the launch address;
 * `files` every file of the resource. The titles are plain text (English, then the Chinese);
 * the inline LOM metadata holds each language in its own langstring.
 */
export function manifest({ identifier, title, description, href, files }) {
  const both = `${title.en} / ${title.zh}`;
  const lang = (t) => `<imsmd:langstring xml:lang="en">${xml(t.en)}</imsmd:langstring><imsmd:langstring xml:lang="zh">${xml(t.zh)}</imsmd:langstring>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${xml(identifier)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:imsmd="http://www.imsglobal.org/xsd/imsmd_rootv1p2p1">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
    <imsmd:lom>
      <imsmd:general>
        <imsmd:title>${lang(title)}</imsmd:title>
        <imsmd:description>${lang(description)}</imsmd:description>
      </imsmd:general>
    </imsmd:lom>
  </metadata>
  <organizations default="${xml(identifier)}-org">
    <organization identifier="${xml(identifier)}-org">
      <title>${xml(both)}</title>
      <item identifier="${xml(identifier)}-item" identifierref="${xml(identifier)}-sco" isvisible="true">
        <title>${xml(both)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${xml(identifier)}-sco" type="webcontent" adlcp:scormtype="sco" href="${xml(href)}">
${files.map((f) => `      <file href="${xml(f)}"/>`).join('\n')}
    </resource>
  </resources>
</manifest>
`;
}

/** The exercises the site serves (DIST/exercises/index.json), each {id, title: {en, zh}}. */
export function servedExercises(dist) {
  const list = JSON.parse(readFileSync(join(dist, 'exercises', 'index.json'), 'utf8'));
  if (!Array.isArray(list?.files)) throw new Error(`${dist}/exercises/index.json has no "files" list`);
  return list.files.map((f) => {
    const doc = JSON.parse(readFileSync(join(dist, 'exercises', f), 'utf8'));
    if (!Number.isInteger(doc.id) || typeof doc.title?.en !== 'string' || typeof doc.title?.zh !== 'string') {
      throw new Error(`exercises/${f}: an exercise document needs a whole-number "id" and a "title" with "en" and "zh"`);
    }
    return { id: doc.id, title: doc.title };
  }).sort((a, b) => a.id - b.id);
}

/**
 * Writes every package; returns [{name, path, bytes, exercise, href}]. The page's files are
 * read once and compressed into each zip (deflate level 6: the wasm and the modules shrink about
 * threefold; a higher level costs time for a few KB).
 */
export function writePackages(options) {
  const dist = resolve(options.dist);
  const outDir = resolve(options.out ?? join(dist, 'scorm'));
  const files = pageFiles(dist, outDir);
  const names = Object.keys(files).sort();
  const exercises = servedExercises(dist);
  const packages = [
    ...exercises.map((ex) => ({
      name: `commlab-exercise-${ex.id}.zip`, identifier: `commlab-exercise-${ex.id}`, exercise: ex.id,
      title: { en: `commlab P5, exercise ${ex.id}: ${ex.title.en}`, zh: `commlab P5 练习 ${ex.id}：${ex.title.zh}` },
      description: {
        en: `Exercise ${ex.id} of lecture P5 (communication in a GPU cluster), checked by the engine; reports completion and a score.`,
        zh: `P5 讲（GPU 集群中的通信）练习 ${ex.id}，由引擎判定；向平台报告完成状态与分数。`,
      },
    })),
    {
      name: 'commlab-all.zip', identifier: 'commlab-all', exercise: null,
      title: { en: `commlab P5: the ${exercises.length} exercises`, zh: `commlab P5：全部 ${exercises.length} 道练习` },
      description: {
        en: `The ${exercises.length} exercises of lecture P5 in one activity; the score is the share of all their answers correct.`,
        zh: `P5 讲的 ${exercises.length} 道练习合为一个活动；分数为全部答案中答对的比例。`,
      },
    },
  ];
  mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const p of packages) {
    const href = `index.html?${launchQuery(p.exercise, options)}`;
    const entries = { 'imsmanifest.xml': [new TextEncoder().encode(manifest({ ...p, href, files: names })), { level: 9 }] };
    // Fixed times: the same build gives the same bytes.
    for (const n of names) entries[n] = [files[n], { level: 6 }];
    const zip = zipSync(entries, { mtime: new Date('2024-01-01T00:00:00Z') });
    const path = join(outDir, p.name);
    writeFileSync(path, zip);
    written.push({ name: p.name, path, bytes: zip.length, exercise: p.exercise, href });
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`scorm.mjs: ${err.message}`);
    console.error('usage: node web/tools/scorm.mjs DIST [--out DIR] [--student-variants] [--seed N] [--reveal never|after-attempt|after-solve] [--hints off] [--calculator off]');
    process.exit(2);
  }
  const start_ms = performance.now();
  try {
    const written = writePackages(options);
    const kb = (b) => `${(b / 1000).toFixed(0)} KB`;
    const total = written.reduce((s, w) => s + w.bytes, 0);
    console.log(`wrote ${written.length} SCORM 1.2 packages into ${options.out ?? join(options.dist, 'scorm')} ` +
      `(${written.map((w) => `${w.name.replace(/^commlab-|\.zip$/g, '')} ${kb(w.bytes)}`).join(', ')}; ${kb(total)} in all) ` +
      `in ${((performance.now() - start_ms) / 1000).toFixed(1)} s; launch: ${written.at(-1).href}`);
  } catch (err) {
    console.error(`scorm.mjs: ${err.message}`);
    process.exit(1);
  }
}
