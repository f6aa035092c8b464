#!/usr/bin/env node
// Writes the page's first script (start.js) and its stylesheets into <dist>/index.html: the
// statements then paint after one response instead of three (the stylesheets block rendering, the
// classic start.js blocks parsing). The strict CSP stays strict: each inline element is allowed by
// its sha256 hash, not by 'unsafe-inline'.
// Usage: node web/tools/inline-head.mjs <dist folder>   (after build-single.mjs, which reads the links)
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const sha = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const safe = (text, tag) => text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1');

/** index.html's text with start.js and every stylesheet written in, and the CSP allowing them. */
export function inlineHead(html, read) {
  const styles = [];
  const scripts = [];
  html = html.replace(/<link rel="stylesheet" href="([^"]+)">/g, (m, href) => {
    const css = safe(read(href), 'style');
    styles.push(sha(css));
    return `<style>${css}</style>`;
  });
  html = html.replace(/<script src="(start\.js)"><\/script>/, (m, src) => {
    const js = safe(read(src), 'script');
    scripts.push(sha(js));
    return `<script>${js}</script>`;
  });
  if (!styles.length || !scripts.length) throw new Error('index.html: the stylesheet links or the start.js script were not found');
  let csp = false;
  html = html.replace(/(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(">)/, (m, a, policy, b) => {
    csp = true;
    const withHashes = policy
      .replace(/script-src ([^;]*)/, (s, v) => `script-src ${v} ${scripts.join(' ')}`)
      .replace(/style-src ([^;]*)/, (s, v) => `style-src ${v} ${styles.join(' ')}`);
    return a + withHashes + b;
  });
  if (!csp) throw new Error('index.html: the CSP meta tag was not found');
  return html;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = process.argv[2];
  if (!dist) {
    console.error('usage: node web/tools/inline-head.mjs <dist folder>');
    process.exit(2);
  }
  const file = join(dist, 'index.html');
  const before = readFileSync(file, 'utf8');
  const after = inlineHead(before, (href) => readFileSync(join(dist, href), 'utf8'));
  writeFileSync(file, after);
  console.log(`index.html: start.js and the stylesheets inline (${(Buffer.byteLength(before) / 1024).toFixed(0)} KB -> ${(Buffer.byteLength(after) / 1024).toFixed(0)} KB)`);
}
