/*
 * commlab embed.js: one line in a course page turns
 *   <div data-commlab-exercise="3" data-lang="zh"></div>
 * into a sized frame holding that exercise (README "Embedding in a course site"):
 *   <script src="https://LAB/embed.js" defer></script>
 * Options, as data attributes: data-lang (en | zh), data-seed (a fixed variant for a class),
 * data-calculator="off", data-hints="off", data-reveal (never | after-attempt | after-solve).
 * The frames' progress is kept in this page's own localStorage (first-party here; the frame's
 * storage is often blocked or partitioned): each frame posts commlab:state, and is answered
 * commlab:restore when it says commlab:ready. Every message is re-dispatched on its div as a DOM
 * event: commlab-ready, commlab-height, commlab-checked, commlab-solved, commlab-state
 * (event.detail is the message). window.commlab.setLang(lang) and window.commlab.reset(div)
 * talk to the frames. A classic script on purpose: it runs in any page, no module loader.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var base = new URL('.', script ? script.src : location.href);
  var labOrigin = base.origin;
  var KEY = 'commlab.host.v1.' + labOrigin + '.';
  var OPTIONS = { lang: 'lang', seed: 'seed', calculator: 'calculator', hints: 'hints', reveal: 'reveal' };
  var frames = []; // {div, frame, exercise}
  var memory = Object.create(null); // when this page's storage fails too: kept for the page's lifetime
  var unsaved = Object.create(null); // exercise -> true while its latest state could not be written (storage full)
  // A frame's message field, read as an own property only (never one of Object.prototype's).
  function field(m, k) {
    return Object.prototype.hasOwnProperty.call(m, k) ? m[k] : undefined;
  }

  function load(exercise) {
    if (unsaved[exercise]) return memory[exercise]; // newer than what storage holds
    try {
      var text = localStorage.getItem(KEY + exercise);
      return text ? JSON.parse(text) : null;
    } catch (e) {
      return memory[String(exercise)] || null;
    }
  }

  function save(exercise, state) {
    memory[String(exercise)] = state;
    try {
      localStorage.setItem(KEY + exercise, JSON.stringify(state));
      delete unsaved[exercise];
    } catch (e) {
      unsaved[exercise] = true; // kept in memory, written with the next state
    }
  }

  function mount(div) {
    if (div.querySelector('iframe[data-commlab-frame]')) return;
    var exercise = String(div.getAttribute('data-commlab-exercise') || '').trim();
    if (!/^\d+$/.test(exercise)) return;
    var url = new URL('index.html', base);
    url.searchParams.set('exercise', exercise);
    url.searchParams.set('embed', '1');
    Object.keys(OPTIONS).forEach(function (k) {
      var v = div.getAttribute('data-' + k);
      if (v !== null && v !== '') url.searchParams.set(OPTIONS[k], v);
    });
    var frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = div.getAttribute('data-title') || 'commlab exercise ' + exercise;
    frame.setAttribute('data-commlab-frame', exercise);
    frame.style.cssText = 'display:block;width:100%;border:0;height:480px;color-scheme:normal';
    div.appendChild(frame);
    frames.push({ div: div, frame: frame, exercise: Number(exercise) });
  }

  function entryFor(source) {
    for (var i = 0; i < frames.length; i++) if (frames[i].frame.contentWindow === source) return frames[i];
    return null;
  }

  window.addEventListener('message', function (e) {
    if (e.origin !== labOrigin) return;
    var entry = entryFor(e.source);
    var m = e.data;
    if (!entry || !m || typeof m !== 'object' || Array.isArray(m)) return;
    var type = field(m, 'type');
    if (!/^commlab:[a-z-]{1,32}$/.test(typeof type === 'string' ? type : '')) return;
    if (field(m, 'exercise') !== entry.exercise) return;
    var height = field(m, 'height');
    var state = field(m, 'state');
    if (type === 'commlab:height') {
      if (typeof height !== 'number' || !(height > 0 && height < 1e6)) return;
      entry.frame.style.height = Math.ceil(height) + 'px';
    } else if (type === 'commlab:ready') {
      e.source.postMessage({ type: 'commlab:restore', exercise: entry.exercise, state: load(entry.exercise) }, labOrigin);
    } else if (type === 'commlab:state') {
      if (!state || typeof state !== 'object' || Array.isArray(state)) return;
      save(entry.exercise, state);
    }
    entry.div.dispatchEvent(new CustomEvent(type.replace(':', '-'), { detail: m, bubbles: true }));
  });

  function post(entry, message) {
    if (entry.frame.contentWindow) entry.frame.contentWindow.postMessage(message, labOrigin);
  }

  window.commlab = {
    /** Every frame (or `div`'s only) switches language: 'en' or 'zh'. */
    setLang: function (lang, div) {
      frames.forEach(function (f) { if (!div || f.div === div) post(f, { type: 'commlab:set-lang', lang: lang }); });
    },
    /** Erases the progress of `div`'s exercise (every frame when no div is given). */
    reset: function (div) {
      frames.forEach(function (f) { if (!div || f.div === div) post(f, { type: 'commlab:reset', exercise: f.exercise }); });
    },
    /** Mounts divs added after the page loaded. */
    scan: function () {
      Array.prototype.forEach.call(document.querySelectorAll('[data-commlab-exercise]'), mount);
    },
  };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', window.commlab.scan);
  else window.commlab.scan();
})();
