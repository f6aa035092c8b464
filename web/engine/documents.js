// The exercise documents the page ships (dist/exercises/*.json, listed by dist/exercises/index.json,
// which `./lab build` writes): the engine has none compiled in, so the worker (or the main
// thread, without one) fetches them and installs them (exercise.install) before it answers. A file
// that is missing or bad is a problem named in plain words; the others still work.

/** The list of the folder: {"files": ["01.json", ...]}. */
export const INDEX = 'index.json';

const PLAIN_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,94}\.json$/;

/**
 * A short fingerprint of a document's text: cyrb53 (53 bits, over UTF-16 units) in hex. The
 * build keeps each document's in engine/first.json, so the page sees that a served document
 * changed since the build and asks the engine instead (a change detector, not a security check).
 */
export function documentHash(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/** {file: hash} of the documents read: what first.json keeps and the page compares. */
export function fingerprints(files) {
  return Object.fromEntries(files.map((f) => [f.file, documentHash(f.text)]));
}

/** True when two fingerprint sets name the same files with the same hashes. */
export function sameFingerprints(a, b) {
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

async function fetchText(url, fetcher) {
  const res = await fetcher(url);
  if (!res.ok) {
    const e = new Error(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
    e.kind = 'missing';
    throw e;
  }
  return res.text();
}

function problemOf(file, err) {
  return { file, kind: err?.kind ?? 'unreadable', message: String(err?.message ?? err) };
}

/** The build's copies as {name: text} (own string members of plain names only); {} when absent. */
async function buildCopies(url, fetcher) {
  if (!url) return {};
  try {
    const res = await fetcher(url);
    if (!res.ok) return {};
    const all = JSON.parse(await res.text());
    const out = Object.create(null);
    if (all && typeof all === 'object' && !Array.isArray(all)) {
      for (const k of Object.keys(all)) if (PLAIN_NAME.test(k) && typeof all[k] === 'string') out[k] = all[k];
    }
    return out;
  } catch {
    return {};
  }
}

/**
 * The documents of the folder at `base` (a URL ending in "/"): {files: [{file, text}], problems:
 * [{file, kind, message}], copied: [names read from the build's copies]}, kind "missing" (HTTP
 * error), "unreadable" (no answer) or "index" (index.json is not a list of files). With `copies`
 * (the URL of the build's engine/documents.json, {"01.json": "<text>", ...}, fetched beside
 * index.json) the listed files are read from there, one request for all, when it holds exactly
 * the files index.json lists (exercises/README.md "Installing the exercises"); otherwise each is
 * fetched, side by side. Never throws.
 */
export async function fetchDocuments(base, fetcher = (url) => fetch(url), { copies: copiesUrl = null } = {}) {
  let names;
  const copies = buildCopies(copiesUrl, fetcher);
  try {
    const text = await fetchText(new URL(INDEX, base), fetcher);
    let list;
    try {
      list = JSON.parse(text)?.files;
    } catch {
      list = null;
    }
    if (!Array.isArray(list) || !list.every((n) => typeof n === 'string' && PLAIN_NAME.test(n))) {
      return { files: [], problems: [{ file: INDEX, kind: 'index', message: 'must be {"files": ["01.json", ...]}, the exercise files of the folder' }] };
    }
    names = [...new Set(list)];
  } catch (e) {
    return { files: [], problems: [problemOf(INDEX, e)] };
  }
  // The copies are the build's list: one listed file more or less (an instructor's edit of
  // index.json) and every listed file is fetched instead.
  const built = await copies;
  const copied = names.length === Object.keys(built).length && names.every((n) => n in built) ? built : {};
  const read = await Promise.all(names.map((file) => (file in copied ? Promise.resolve(copied[file]) : fetchText(new URL(file, base), fetcher))
    .then((text) => ({ file, text }), (e) => ({ file, problem: problemOf(file, e) }))));
  return {
    files: read.filter((r) => !r.problem),
    problems: read.filter((r) => r.problem).map((r) => r.problem),
    copied: names.filter((file) => file in copied),
  };
}

/**
 * The files of `served.copied` (read from the build's copies) whose text on the server (the
 * folder at `base`, fetched past any cache) is not the copy's: their names, sorted. A file that
 * cannot be fetched is not counted: the copy stands.
 */
export async function changedOnServer(base, served, fetcher = (url) => fetch(url, { cache: 'no-cache' })) {
  const copy = new Map(served.files.map((f) => [f.file, f.text]));
  const changed = await Promise.all((served.copied ?? []).map((file) => fetchText(new URL(file, base), fetcher)
    .then((text) => (text !== copy.get(file) ? file : null), () => null)));
  return changed.filter(Boolean).sort();
}

/**
 * Installs `served` ({files, problems}, from fetchDocuments or inlined by the single-file build)
 * into `lab` (wasm/commlab.js): {exercises, problems}, the fetch problems first, then each
 * document the engine refused (kind "invalid", its invalid_exercise message).
 */
export function installDocuments(lab, served) {
  // The build's copies were installed by the build with this engine: their compute sections are
  // not run again at the defaults (exercises/README.md "Installing the exercises").
  const copied = new Set(served.copied ?? []);
  const files = served.files.map((f) => (copied.has(f.file) ? { ...f, checked_at_build: true } : f));
  let out;
  try {
    out = lab.evaluate({ op: 'exercise.install', files });
  } catch (e) {
    out = { error: { code: 'engine_exception', message: String(e?.message ?? e) } };
  }
  const refused = out.error ? [{ file: INDEX, kind: 'invalid', message: `${out.error.code}: ${out.error.message}` }]
    : out.problems.map((p) => ({ file: p.file, kind: 'invalid', message: p.message }));
  return { exercises: out.exercises ?? [], problems: [...served.problems, ...refused] };
}

/**
 * The op of every request the documents declare (a "request" member: exercises/schema.json), so
 * the worker installs them on a module that has those ops (engine/worker.js). A text that does
 * not parse adds none: installing it names its problem.
 */
export function declaredOps(files) {
  const ops = new Set();
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'request' && typeof x?.op === 'string') ops.add(x.op);
        walk(x);
      }
    }
  };
  for (const { text } of files) {
    try {
      walk(JSON.parse(text));
    } catch {
      // unreadable or nested past the stack: the engine refuses it when it is installed
    }
  }
  return ops;
}
