// The build's copies of the exercise documents (web/engine/documents.js, exercises/README.md
// "Installing the exercises"): one request for every listed file while index.json lists exactly
// the files the copy holds; each file fetched otherwise; a file edited in place is found.
import assert from 'node:assert/strict';
import test from 'node:test';
import { changedOnServer, fetchDocuments, installDocuments } from '../../web/engine/documents.js';

const BASE = new URL('http://lab.test/exercises/');
const COPIES = new URL('http://lab.test/engine/documents.json');

/** A fetcher over {url path: text} that records what was asked. */
function host(files) {
  const asked = [];
  const fetcher = async (url) => {
    const path = new URL(url).pathname;
    asked.push(path);
    const text = files[path];
    return text === undefined ? { ok: false, status: 404, statusText: 'Not Found', text: async () => '' }
      : { ok: true, status: 200, text: async () => text };
  };
  return { asked, fetcher };
}

const built = { '01.json': '{"id": 1}', '02.json': '{"id": 2}' };

test('index.json listing exactly the copied files: two requests, the copies installed', async () => {
  const { asked, fetcher } = host({
    '/exercises/index.json': JSON.stringify({ files: ['01.json', '02.json'] }),
    '/engine/documents.json': JSON.stringify(built),
    '/exercises/01.json': 'served 1', '/exercises/02.json': 'served 2',
  });
  const served = await fetchDocuments(BASE, fetcher, { copies: COPIES });
  assert.deepEqual(served.files, [{ file: '01.json', text: built['01.json'] }, { file: '02.json', text: built['02.json'] }]);
  assert.deepEqual(served.copied, ['01.json', '02.json']);
  assert.deepEqual(asked.sort(), ['/engine/documents.json', '/exercises/index.json']);
});

test('a file added to index.json on the server: every listed file is fetched, the copies unused', async () => {
  const { asked, fetcher } = host({
    '/exercises/index.json': JSON.stringify({ files: ['01.json', '02.json', '03.json'] }),
    '/engine/documents.json': JSON.stringify(built),
    '/exercises/01.json': 'served 1', '/exercises/02.json': 'served 2', '/exercises/03.json': 'served 3',
  });
  const served = await fetchDocuments(BASE, fetcher, { copies: COPIES });
  assert.deepEqual(served.files.map((f) => f.text), ['served 1', 'served 2', 'served 3']);
  assert.deepEqual(served.copied, []);
  assert.equal(asked.filter((p) => p.startsWith('/exercises/0')).length, 3);
});

test('no copies (a host without documents.json, or a bad one): each file fetched', async () => {
  for (const copies of [undefined, 'not json', '["a list"]', JSON.stringify({ '../x.json': 'bad name' })]) {
    const files = {
      '/exercises/index.json': JSON.stringify({ files: ['01.json'] }), '/exercises/01.json': 'served 1',
    };
    if (copies !== undefined) files['/engine/documents.json'] = copies;
    const served = await fetchDocuments(BASE, host(files).fetcher, { copies: COPIES });
    assert.deepEqual(served.files, [{ file: '01.json', text: 'served 1' }], String(copies));
    assert.deepEqual(served.problems, []);
  }
});

test('changedOnServer names a copied file edited in place, not one that is the same or cannot be fetched', async () => {
  const served = { files: [{ file: '01.json', text: 'a' }, { file: '02.json', text: 'b' }, { file: '03.json', text: 'c' }], copied: ['01.json', '02.json', '03.json'] };
  const { fetcher } = host({ '/exercises/01.json': 'a', '/exercises/02.json': 'b edited' });
  assert.deepEqual(await changedOnServer(BASE, served, fetcher), ['02.json']);
  assert.deepEqual(await changedOnServer(BASE, { ...served, copied: [] }, fetcher), []);
});

test('installDocuments marks the build\'s copies checked_at_build, never a file fetched from the server', () => {
  const asked = [];
  const lab = { evaluate: (r) => { asked.push(r); return { exercises: [], problems: [] }; } };
  installDocuments(lab, { files: [{ file: '01.json', text: 'a' }, { file: '09.json', text: 'b' }], problems: [], copied: ['01.json'] });
  assert.deepEqual(asked[0].files, [{ file: '01.json', text: 'a', checked_at_build: true }, { file: '09.json', text: 'b' }]);
  installDocuments(lab, { files: [{ file: '01.json', text: 'a' }], problems: [] }); // the single-file build's: no copies named
  assert.deepEqual(asked[1].files, [{ file: '01.json', text: 'a' }]);
});
