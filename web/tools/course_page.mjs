// dist/course.html, the page's "Use in your course" page: the front door's "Put it in a course"
// section (README.md) as HTML, so an instructor reads on the deployed site what the repository
// says. Markdown here is the subset that section uses: headings, paragraphs, lists, fenced code,
// tables, and inline code, links and bold. No script and no inline style: the page lives under the
// site's Content-Security-Policy and takes its look from styles.css.
//   node web/tools/course_page.mjs README.md DIST
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const SECTION = 'Put it in a course';

const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The lines of `## <title>` up to the next `## ` heading, outside code blocks. */
export function section(markdown, title = SECTION) {
  const lines = markdown.split('\n');
  let inCode = false, start = -1, end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('```')) inCode = !inCode;
    if (inCode || !lines[i].startsWith('## ')) continue;
    if (start >= 0) { end = i; break; }
    if (lines[i] === `## ${title}`) start = i;
  }
  if (start < 0) throw new Error(`README.md has no section "## ${title}"`);
  return lines.slice(start, end);
}

// A link the deployed site can follow: an absolute URL, or the page itself (`index.html...`,
// `?...`, `embed.js`). The repository's own files (`web/README.md#...`) are not in dist/: their
// label stays, as text.
const followable = (href) => /^(https?:|mailto:)/.test(href) || /^(index\.html|\?|embed\.js|#)/.test(href);

/** Inline markdown: `code` first (nothing inside it is markup), then links and bold. */
export function inline(text) {
  return text.split(/(`[^`]*`)/).map((part) => {
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return `<code>${escape(part.slice(1, -1))}</code>`;
    return escape(part)
      .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label, href) =>
        followable(href) ? `<a href="${href}">${label}</a>` : label)
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  }).join('');
}

// A table row's cells: split on | outside code spans, \| an escaped bar.
function cells(row) {
  const out = [];
  let cell = '', inCode = false;
  const text = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && text[i + 1] === '|') { cell += '|'; i++; continue; }
    if (c === '`') inCode = !inCode;
    if (c === '|' && !inCode) { out.push(cell.trim()); cell = ''; continue; }
    cell += c;
  }
  out.push(cell.trim());
  return out;
}

/** The markdown lines as HTML, block by block; `shift` lowers headings (## becomes h1). */
export function toHtml(lines, shift = 1) {
  const html = [];
  let i = 0;
  const isBlockStart = (line) => /^(#{1,6} |```|\| |- |\d+\. )/.test(line) || line.trim() === '';
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') { i++; continue; }
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, Math.max(1, heading[1].length - shift));
      html.push(`<h${level}>${inline(heading[2])}</h${level}>`);
      i++;
      continue;
    }
    if (line.startsWith('```')) {
      const lang = line.slice(3).trim();
      const body = [];
      for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
      i++;
      html.push(`<div class="chart-table"><pre><code${lang ? ` class="language-${escape(lang)}"` : ''}>${escape(body.join('\n'))}</code></pre></div>`);
      continue;
    }
    if (line.startsWith('| ')) {
      const rows = [];
      for (; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i]);
      const [head, , ...body] = rows;
      html.push('<div class="chart-table"><table>',
        `<thead><tr>${cells(head).map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead>`,
        `<tbody>${body.map((r) => `<tr>${cells(r).map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody>`,
        '</table></div>');
      continue;
    }
    const list = /^(- |\d+\. )/.exec(line);
    if (list) {
      const ordered = list[1] !== '- ';
      const items = [];
      while (i < lines.length && /^(- |\d+\. )/.test(lines[i]) === true && (lines[i].startsWith('- ') !== ordered)) {
        const item = [lines[i].replace(/^(- |\d+\. )/, '')];
        for (i++; i < lines.length && /^ {2,}\S/.test(lines[i]); i++) item.push(lines[i].trim());
        items.push(`<li>${inline(item.join(' '))}</li>`);
      }
      html.push(`<${ordered ? 'ol' : 'ul'}>${items.join('')}</${ordered ? 'ol' : 'ul'}>`);
      continue;
    }
    const paragraph = [];
    for (; i < lines.length && (paragraph.length === 0 || !isBlockStart(lines[i])); i++) paragraph.push(lines[i].trim());
    html.push(`<p>${inline(paragraph.join(' '))}</p>`);
  }
  return html.join('\n');
}

/** The whole page around the section. */
export function page(markdown) {
  const lines = section(markdown);
  const title = lines[0].replace(/^## /, '');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'">
  <title>commlab · ${escape(title)}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="styles.css">
</head>
<body>
  <header class="page-head">
    <div class="brand">
      <p><a href="./">commlab · P5 exercises</a></p>
    </div>
  </header>
  <main>
    <article class="card" data-role="course">
${toHtml(lines)}
    </article>
  </main>
</body>
</html>
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [readme, dist] = process.argv.slice(2);
  if (!readme || !dist) {
    console.error('usage: node web/tools/course_page.mjs README.md DIST');
    process.exit(2);
  }
  const html = page(readFileSync(readme, 'utf8'));
  writeFileSync(join(dist, 'course.html'), html);
  console.log(`wrote ${join(dist, 'course.html')} from ${readme} "${SECTION}"`);
}
