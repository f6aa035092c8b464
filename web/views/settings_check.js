// The section views' settings checked before the engine is asked, and their refresh: a value
// that cannot be used is named (the view's own words name the control), the drawing is hidden
// while it stands, and an answer to a refresh a later one has overtaken is not drawn.

/**
 * What `fields` hold that cannot be used, one sentence a field, in their order. A field is
 * {input, range, say, whole}: `range` [lo, hi] or {min, max}; `whole` (the default) asks for an
 * integer, else any finite number; `say(value, lo, hi)` names the control and the value typed.
 */
export function rangeProblems(fields) {
  const said = [];
  for (const { input, range, say, whole = true } of fields) {
    const [lo, hi] = Array.isArray(range) ? range : [range.min, range.max];
    const v = Number(input.value);
    const ok = whole ? Number.isInteger(v) : Number.isFinite(v);
    if (input.value.trim() === '' || !ok || v < lo || v > hi) said.push(say(input.value, lo, hi));
  }
  return said;
}

/** The first of `fields` that cannot be used, said ('' when all can). */
export const rangeProblem = (fields) => rangeProblems(fields)[0] ?? '';

/**
 * A view's refresh around its `problem` line and its `drawn` part. `begin(wrong)` starts a
 * refresh: with a problem it is said, the drawing hidden, and null returned; else the problem
 * goes and a turn is returned whose `stale` says that a later refresh has begun since.
 * `say(text)` says a problem of the answer (the drawing hidden); `check(wrong)` says or clears
 * one within a refresh, true when there is none.
 */
export function settingsRefresh(problem, drawn) {
  let asked = 0;
  const say = (text) => {
    problem.hidden = !text;
    problem.textContent = text;
    drawn.hidden = Boolean(text);
  };
  const check = (wrong) => {
    say(wrong);
    return !wrong;
  };
  return {
    begin(wrong = '') {
      const mine = ++asked;
      return check(wrong) ? { get stale() { return mine !== asked; } } : null;
    },
    /** A turn without a check yet (a view that must ask the engine before it can check). */
    turn() {
      const mine = ++asked;
      return { get stale() { return mine !== asked; } };
    },
    check,
    say,
  };
}
