// Worksheets (web/README.md "Answer keys and worksheets"): a printout of the page is a worksheet (the
// `@media print` block of styles.css), and `?print=1` shows that layout on screen as well, so an
// instructor sees what will print. The rules are written once: on screen they are switched on by
// widening that block's media to all. `@media only print` (problem boxes) stays print-only.

/** Shows the worksheet layout on screen: html.worksheet, and the print rules for every medium. */
export function showWorksheet(doc = document) {
  doc.documentElement.classList.add('worksheet');
  for (const sheet of doc.styleSheets) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // a sheet of another origin (none is linked; the CSP allows only 'self')
    }
    for (const rule of rules) {
      if (rule instanceof CSSMediaRule && rule.media.mediaText === 'print') rule.media.mediaText = 'all';
    }
  }
}
