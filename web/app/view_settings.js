// A section view's settings in the address (`?view=ladder&efficiency=0.8&a=pcie5`), as Explore's
// are: a link reproduces what a student set, and a language switch, which draws the view anew,
// keeps it. Each view marks its controls `data-setting` (a select, a number input or a checkbox).
// A setting from the address is checked against its control (the options, the range) and set as a
// student would set it, with its own input or change event; one after another, each once the view
// has drawn the last (aria-busy gone), since one setting may fill another's choices.

const BUSY_WAIT_MS = 5000; // a view that never says it is done does not stop the page
const applying = new WeakSet(); // views being set from the address: their events are not written back

/** The view's controls by setting name, in the order they appear. */
export function settingControls(root) {
  const controls = new Map();
  for (const el of root.querySelectorAll('[data-setting]')) {
    if (el.matches('select, input') && !controls.has(el.dataset.setting)) controls.set(el.dataset.setting, el);
  }
  return controls;
}

/** The control's value as the address writes it. */
export function settingText(control) {
  return control.type === 'checkbox' ? String(control.checked) : control.value;
}

/**
 * What `text` may not be for `control`: a link problem ({setting, value, allowed, fallback}, as
 * app/address.js writes them), or null when it may be.
 */
export function settingProblem(name, control, text) {
  const problem = (allowed) => ({ setting: name, value: text, allowed, fallback: settingText(control) });
  if (control.tagName === 'SELECT') {
    const values = [...control.options].map((o) => o.value);
    return values.includes(text) ? null : problem({ list: values });
  }
  if (control.type === 'checkbox') return text === 'true' || text === 'false' ? null : problem({ list: ['true', 'false'] });
  if (control.type === 'number') {
    const min = Number(control.min);
    const max = Number(control.max);
    const whole = control.step === '1';
    const x = Number(text);
    const ok = text.trim() !== '' && Number.isFinite(x) && x >= min && x <= max && (!whole || Number.isInteger(x));
    return ok ? null : problem(whole ? { whole: [min, max] } : { number: [min, max] });
  }
  return null;
}

function notBusy(root) {
  if (!root.hasAttribute('aria-busy')) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new MutationObserver(() => { if (!root.hasAttribute('aria-busy')) done(); });
    observer.observe(root, { attributes: true, attributeFilter: ['aria-busy'] });
    const timer = setTimeout(done, BUSY_WAIT_MS);
  });
}

/**
 * Sets the view's controls from `query` (URLSearchParams); resolves to the problems of the
 * settings it could not take (those keep the view's own value). Call once the view has drawn.
 */
export async function applySettings(root, query) {
  const problems = [];
  applying.add(root);
  try {
    for (const [name, control] of settingControls(root)) {
      if (!query.has(name)) continue;
      const text = query.get(name);
      const problem = settingProblem(name, control, text);
      if (problem) {
        problems.push(problem);
        continue;
      }
      if (settingText(control) === text) continue;
      if (control.type === 'checkbox') control.checked = text === 'true';
      else control.value = text;
      control.dispatchEvent(new Event('input', { bubbles: true }));
      control.dispatchEvent(new Event('change', { bubbles: true }));
      await notBusy(root);
    }
  } finally {
    applying.delete(root);
  }
  return problems;
}

/**
 * `search` (a query string) with every setting of the view as its controls hold it now; one that
 * the address would not take back (a number half typed) keeps what the address had.
 */
export function settingsSearch(root, search) {
  const query = new URLSearchParams(search);
  for (const [name, control] of settingControls(root)) {
    const text = settingText(control);
    if (!settingProblem(name, control, text)) query.set(name, text);
  }
  return `?${query}`;
}

/**
 * Keeps the address in step with the view: each change a student makes is written (replaceState:
 * no history entry a keystroke) once its value is one the address would take back.
 */
export function followSettings(root) {
  const write = (e) => {
    if (applying.has(root)) return; // the address already says so
    const control = e.target.closest?.('[data-setting]');
    if (!control || !root.contains(control)) return;
    history.replaceState(history.state, '', `${settingsSearch(root, location.search)}${location.hash}`);
  };
  root.addEventListener('input', write);
  root.addEventListener('change', write);
}
