/*
 * commlab embed.js: one line in a course page turns
 *   <div data-commlab-exercise="3" data-lang="zh"></div>
 * into a sized frame holding that exercise (web/README.md "Embedding in a course site"):
 *   <script src="https://LAB/embed.js" defer></script>
 * Options, as data attributes (passed to the frame as URL options of the same names): data-lang
 * (en | zh), data-seed (a fixed variant for a class), data-student (the host's key for this
 * student: the student's own variant), data-calculator="off", data-hints="off", data-reveal
 * (never | after-attempt | after-solve), data-theme (light | dark), data-accent, data-background,
 * data-text (#rgb or #rrggbb). For this script alone: data-key (keeps this frame's progress apart
 * from other frames of the same exercise, seed and student) and data-title (the frame's title).
 * A bad value is named by console.error here, and in the frame, which uses its strictest fallback.
 * The frames' progress is kept in this page's own localStorage (first-party here; the frame's
 * storage is often blocked or partitioned), one key per frame: (exercise, seed, student, key).
 * Each frame posts commlab:state, and is answered commlab:restore when it says commlab:ready.
 * A frame that never says ready (its server refuses to be framed here) gets a message in its div.
 * Every message is re-dispatched on its div as a DOM event: commlab-ready, commlab-height,
 * commlab-checked, commlab-solved, commlab-state (event.detail is the message).
 * window.commlab.setLang(lang) and window.commlab.reset(div) talk to the frames. A classic script
 * on purpose: it runs in any page, no module loader; pasted twice, the second copy uses the first.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var base = new URL('.', script ? script.src : location.href);
  var labOrigin = base.origin;
  var VERSION = 2;
  var existing = window.commlab;
  if (existing && existing.embedVersion) {
    // Pasted twice: one state, one listener; the first copy mounts what is new.
    if (existing.labOrigin !== labOrigin) {
      console.error('commlab: embed.js of ' + labOrigin + ' is on a page that already embeds the lab of ' +
        existing.labOrigin + '; one lab per page: its divs are mounted from ' + existing.labOrigin);
    }
    existing.scan();
    return;
  }
  var KEY = 'commlab.host.v1.' + labOrigin + '.';
  // Passed to the frame as URL options; what each allows (the frame checks the same:
  // web/app/address.js, and uses the strictest value for a bad one).
  var COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
  var OPTIONS = {
    lang: { list: ['en', 'zh'] },
    seed: { test: function (v) { return /^\d{1,16}$/.test(v) && Number(v) <= 9007199254740991; }, allowed: 'a whole number from 0 to 9007199254740991' },
    student: { test: keyText, allowed: '1 to 200 characters, none a control character' },
    calculator: { list: ['on', 'off'] },
    hints: { list: ['on', 'off'] },
    reveal: { list: ['never', 'after-attempt', 'after-solve'] },
    theme: { list: ['light', 'dark'] },
    accent: { test: colour, allowed: '#rgb or #rrggbb' },
    background: { test: colour, allowed: '#rgb or #rrggbb' },
    text: { test: colour, allowed: '#rgb or #rrggbb' },
  };
  // This script's own, not passed on.
  var LOCAL = {
    key: { test: keyText, allowed: '1 to 200 characters, none a control character' },
    title: { test: function () { return true; } },
  };
  // A frame that has loaded gets this long to say commlab:ready (its engine starts first: 1 to 5 s
  // for eight frames on two cores) before the div says the lab did not answer.
  var READY_WAIT_MS = 10000;
  var WORDS = {
    en: {
      frame: function (n, title) { return 'commlab exercise ' + n + (title ? ': ' + title : ''); },
      silent: function (site) { return 'This exercise did not load: the lab at ' + site + ' did not answer. Its server may refuse to be shown inside this site.'; },
      open: function (n) { return 'Open exercise ' + n + ' in a new tab'; },
    },
    zh: {
      frame: function (n, title) { return 'commlab 练习 ' + n + (title ? '：' + title : ''); },
      silent: function (site) { return '此练习没有加载：' + site + ' 上的实验室没有响应。它的服务器可能不允许在本站点内显示。'; },
      open: function (n) { return '在新标签页中打开练习 ' + n; },
    },
  };
  var frames = []; // {div, frame, win, exercise, key, lang, title, ready, timer, problem, openUrl}
  var memory = Object.create(null); // when this page's storage fails too: kept for the page's lifetime
  var unsaved = Object.create(null); // host key -> true while its latest state could not be written (storage full)
  // A frame's message field, read as an own property only (never one of Object.prototype's).
  function field(m, k) {
    return Object.prototype.hasOwnProperty.call(m, k) ? m[k] : undefined;
  }
  function own(table, k) {
    return Object.prototype.hasOwnProperty.call(table, k) ? table[k] : undefined;
  }
  function colour(v) { return COLOUR.test(v); }
  function keyText(v) { return v.length >= 1 && v.length <= 200 && !/[\u0000-\u001f\u007f]/.test(v); }

  function load(key) {
    if (unsaved[key]) return memory[key]; // newer than what storage holds
    try {
      var text = localStorage.getItem(KEY + key);
      return text ? JSON.parse(text) : null;
    } catch (e) {
      return memory[key] || null;
    }
  }

  function save(key, state) {
    memory[key] = state;
    try {
      localStorage.setItem(KEY + key, JSON.stringify(state));
      delete unsaved[key];
    } catch (e) {
      unsaved[key] = true; // kept in memory, written with the next state
    }
  }

  // Where a frame's progress is kept: the exercise alone (as before data-seed and data-student
  // had keys of their own), or "3?seed=7&student=ab&key=k" for a frame that names any of them.
  function hostKey(div, exercise) {
    var parts = new URLSearchParams();
    ['seed', 'student', 'key'].forEach(function (k) {
      var v = div.getAttribute('data-' + k);
      if (v !== null && v !== '') parts.set(k, v);
    });
    var rest = parts.toString();
    return exercise + (rest ? '?' + rest : '');
  }

  // Edit distance, for "did you mean": data-reveel is data-reveal misspelled.
  function distance(a, b) {
    var row = [];
    for (var j = 0; j <= b.length; j++) row[j] = j;
    for (var i = 1; i <= a.length; i++) {
      var prev = row[0];
      row[0] = i;
      for (j = 1; j <= b.length; j++) {
        var here = row[j];
        row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = here;
      }
    }
    return row[b.length];
  }

  // Each option's value, checked; a data attribute that looks like a misspelled option named.
  function checkAttributes(div, exercise) {
    var names = Object.keys(OPTIONS).concat(Object.keys(LOCAL));
    var where = 'commlab: exercise ' + exercise + ': ';
    names.forEach(function (k) {
      var v = div.getAttribute('data-' + k);
      if (v === null || v === '') return; // as if not given
      var rule = own(OPTIONS, k) || own(LOCAL, k);
      var ok = rule.list ? rule.list.indexOf(v) >= 0 : rule.test(v);
      if (!ok) {
        console.error(where + 'data-' + k + '="' + v + '" is not allowed; allowed: ' + (rule.list ? rule.list.join(', ') : rule.allowed) +
          (own(OPTIONS, k) ? '. The frame names it and uses its fallback (for reveal, hints and calculator, the strictest value).' : '. It is not used.'));
      }
    });
    Array.prototype.forEach.call(div.attributes, function (a) {
      if (a.name.indexOf('data-') !== 0 || a.name === 'data-commlab-exercise') return;
      var name = a.name.slice(5);
      if (names.indexOf(name) >= 0) return;
      var near = names.filter(function (k) { return distance(name, k) <= 2; })[0];
      if (!near && name.indexOf('commlab') !== 0) return; // the course site's own attribute
      console.error(where + a.name + '="' + a.value + '" is not an option of commlab' + (near ? ' (did you mean data-' + near + '?)' : '') +
        '; the options are ' + names.map(function (k) { return 'data-' + k; }).join(', ') + '. It is not used.');
    });
  }

  // The language of a frame's div as this page says it: setLang's, the div's data-lang, or the page's <html lang>.
  function langOf(entry) {
    if (entry.lang) return entry.lang;
    var given = entry.div.getAttribute('data-lang');
    if (given === 'en' || given === 'zh') return given;
    return /^zh\b/i.test(document.documentElement.lang || '') ? 'zh' : 'en';
  }

  // The frame's title (its accessible name), in the page's language: the exercise's own title
  // once the frame said it; the instructor's data-title over both.
  function renderTitle(entry) {
    var given = entry.div.getAttribute('data-title');
    var lang = langOf(entry);
    var title = entry.title ? (own(entry.title, lang) || own(entry.title, 'en') || '') : '';
    entry.frame.title = given || WORDS[lang].frame(entry.exercise, typeof title === 'string' ? title : '');
  }

  // The frame loaded but never said commlab:ready: most often the lab's server refuses to be
  // framed by this site (its Content-Security-Policy frame-ancestors). Said in the div, in text.
  function renderSilent(entry) {
    if (!entry.problem) return;
    var w = WORDS[langOf(entry)];
    var link = document.createElement('a');
    link.href = entry.openUrl;
    link.target = '_blank';
    link.rel = 'noopener';
    link.textContent = w.open(entry.exercise);
    var text = document.createElement('span');
    var zh = langOf(entry) === 'zh';
    text.textContent = w.silent(base.host) + (zh ? '' : ' ');
    entry.problem.lang = zh ? 'zh-CN' : 'en';
    entry.problem.replaceChildren(text, link);
  }

  function silent(entry) {
    if (entry.ready || entry.problem) return;
    var box = document.createElement('p');
    box.setAttribute('role', 'alert');
    box.setAttribute('data-commlab-problem', 'no-answer');
    box.style.cssText = 'margin:0 0 .5rem;padding:.6rem .8rem;border:1px solid;border-radius:6px;font:inherit;line-height:1.4';
    entry.problem = box;
    renderSilent(entry);
    entry.div.insertBefore(box, entry.frame);
    entry.frame.style.height = '150px'; // the browser's error page: no need for the card's height (an answer resizes it)
    console.error('commlab: the frame of exercise ' + entry.exercise + ' (' + entry.frame.src + ') did not say commlab:ready within ' +
      READY_WAIT_MS / 1000 + ' s of loading. Check that ' + labOrigin + ' serves index.html there, and that its ' +
      'Content-Security-Policy frame-ancestors lists this site (' + location.origin + '), e.g. COMMLAB_FRAME_ANCESTORS="\'self\' ' +
      location.origin + '" ./lab serve, and that no X-Frame-Options header refuses it (web/README.md "Hosting").');
  }

  function mount(div) {
    if (div.querySelector('iframe[data-commlab-frame]')) return;
    var exercise = String(div.getAttribute('data-commlab-exercise') || '').trim();
    if (!/^\d+$/.test(exercise)) {
      console.error('commlab: data-commlab-exercise="' + exercise + '" is not an exercise number (1, 2, ...); nothing is shown there.');
      return;
    }
    checkAttributes(div, exercise);
    var url = new URL('index.html', base);
    url.searchParams.set('exercise', exercise);
    Object.keys(OPTIONS).forEach(function (k) {
      var v = div.getAttribute('data-' + k);
      if (v !== null && v !== '') url.searchParams.set(k, v);
    });
    var openUrl = url.href; // a tab of its own: the same options, not embedded
    url.searchParams.set('embed', '1');
    var frame = document.createElement('iframe');
    frame.src = url.href;
    frame.setAttribute('data-commlab-frame', exercise);
    // The frame's colour scheme as its page's (a mismatch paints it opaque): the theme asked for, else the browser's.
    var theme = div.getAttribute('data-theme');
    frame.style.cssText = 'display:block;width:100%;border:0;height:480px;color-scheme:' + (theme === 'light' || theme === 'dark' ? theme : 'normal');
    var entry = { div: div, frame: frame, exercise: Number(exercise), key: hostKey(div, exercise), lang: null, title: null, ready: false, timer: null, problem: null, openUrl: openUrl };
    frames.forEach(function (f) {
      if (f.key === entry.key) {
        console.warn('commlab: two frames of exercise ' + exercise + ' keep their progress under one key (' + entry.key +
          '): the last to save wins after a reload. Give each a data-key="..." of its own.');
      }
    });
    renderTitle(entry);
    frame.addEventListener('load', function () {
      clearTimeout(entry.timer);
      if (!entry.ready) entry.timer = setTimeout(function () { silent(entry); }, READY_WAIT_MS);
    });
    div.appendChild(frame);
    // Its window, kept: while this page unloads the iframe is already detached (contentWindow
    // null) when the frame's last state arrives from its pagehide.
    entry.win = frame.contentWindow;
    frames.push(entry);
  }

  function entryFor(source) {
    for (var i = 0; i < frames.length; i++) if (frames[i].win === source || frames[i].frame.contentWindow === source) return frames[i];
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
      entry.ready = true;
      clearTimeout(entry.timer);
      if (entry.problem) {
        entry.problem.remove(); // it answered after all (a slow start)
        entry.problem = null;
      }
      var title = field(m, 'title');
      entry.title = title && typeof title === 'object' && !Array.isArray(title) ? title : null;
      renderTitle(entry);
      e.source.postMessage({ type: 'commlab:restore', exercise: entry.exercise, state: load(entry.key) }, labOrigin);
      // A setLang sent while the frame was still loading reached no listener: say it again.
      if (entry.lang && field(m, 'lang') !== entry.lang) e.source.postMessage({ type: 'commlab:set-lang', lang: entry.lang }, labOrigin);
    } else if (type === 'commlab:state') {
      if (!state || typeof state !== 'object' || Array.isArray(state)) return;
      save(entry.key, state);
    }
    entry.div.dispatchEvent(new CustomEvent(type.replace(':', '-'), { detail: m, bubbles: true }));
  });

  function post(entry, message) {
    if (entry.frame.contentWindow) entry.frame.contentWindow.postMessage(message, labOrigin);
  }

  window.commlab = {
    embedVersion: VERSION,
    labOrigin: labOrigin,
    /** Every frame (or `div`'s only) switches language: 'en' or 'zh'; so do the frames' titles and messages. */
    setLang: function (lang, div) {
      if (lang !== 'en' && lang !== 'zh') {
        console.error('commlab.setLang: "' + lang + '" is not a language; allowed: en, zh.');
        return;
      }
      frames.forEach(function (f) {
        if (div && f.div !== div) return;
        f.lang = lang;
        post(f, { type: 'commlab:set-lang', lang: lang });
        renderTitle(f);
        renderSilent(f);
      });
    },
    /** Erases the progress of `div`'s frame (every frame when no div is given). */
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
