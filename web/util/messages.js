// The page's words are data, one JSON file a language (util/strings/): plain text, templates with
// named slots ("{label}: type a number."), and messages of several parts (cases, plural forms,
// pieces) that a small formatter puts together. compile() turns a language's data into what the
// views call: each template a function of the arguments its form names. No eval: the strict CSP
// holds.

const SLOT = /\{(\w+)\}/g;

/** `template` with each {name} that `slots` has filled in; other braces stay as written. */
export function fill(template, slots = {}) {
  return template.replace(SLOT, (m, name) => (Object.hasOwn(slots, name) ? String(slots[name]) : m));
}

/** The names of the slots of `template`, in order. */
export function slotsOf(template) {
  return [...template.matchAll(SLOT)].map((m) => m[1]);
}

/**
 * `data` (one language's words) with its messages made functions by `forms`, a tree of the same
 * keys: 'a b' names the arguments that fill a template's {a} and {b}; '{}' takes one object whose
 * fields fill the slots; a function (m, ...args) puts a message of several parts together, with
 * m(part, slots) filling one part (m(slots) the message's only template), m.has(part),
 * m.plural(n, slots) (the part `one` for 1, else `other`) m.lang (`lang`) and
 * m.group (the raw words beside the message). What no form names stays data.
 */
export function compile(data, forms, lang) {
  const out = {};
  for (const [key, value] of Object.entries(data)) {
    const form = Object.hasOwn(forms, key) ? forms[key] : undefined;
    if (typeof form === 'string') out[key] = positional(value, form);
    else if (typeof form === 'function') out[key] = formatted(value, form, lang, data);
    else if (form && typeof form === 'object') out[key] = compile(value, form, lang);
    else out[key] = value;
  }
  return out;
}

function positional(template, form) {
  if (form === '{}') return (slots) => fill(template, slots);
  const names = form.split(' ');
  return (...args) => fill(template, Object.fromEntries(names.map((n, i) => [n, args[i]])));
}

function formatted(parts, form, lang, group) {
  const m = (part, slots) => (typeof part === 'string' ? fill(parts[part], slots) : fill(parts, part));
  m.has = (part) => typeof parts === 'object' && Object.hasOwn(parts, part);
  m.lang = lang;
  m.group = group;
  m.plural = (n, slots) => m(n === 1 ? 'one' : 'other', slots);
  return (...args) => form(m, ...args);
}

// Shared by the formatters of both tables (util/i18n.js, util/section_strings.js).
/** A position counted from 0, said from 1. */
export const ordinal = (m, i) => m({ n: i + 1 });
/** A count in the plural form it takes. */
export const count = (m, n) => m.plural(n, { n });
/** The part of `m` named `value` when it has one, else `fallback`. */
export const oneOf = (m, value, fallback) => (typeof value === 'string' && m.has(value) ? value : fallback);
