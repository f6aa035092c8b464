// Small helpers the card modules share.

/** The value of a choice: a plain string, or the id of a {id, label} choice. */
export function choiceValue(c) {
  return typeof c === 'object' && c !== null ? String(c.id ?? c.value) : String(c);
}

/** An engine error as one line. */
export function errorText(err) {
  return `${err.code}: ${err.message}`;
}
