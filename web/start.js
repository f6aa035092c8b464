// The page's first script: a classic script in <head> (not a module), so it runs while the page
// is still parsing. It starts the engine's Web Worker at once, so the .wasm is fetched and
// compiled alongside the page's modules, not after them (engine/worker.js, engine/door.js picks
// the worker up), and it makes the prerendered cards (written into index.html by `./lab build`)
// safe before the engine is there: a check then says the engine is loading and is answered as
// soon as it is ready, never with a wrong verdict.
(function () {
  'use strict';
  var boot = { worker: null, checks: [] };
  window.commlabBoot = boot;
  var root = document.documentElement;
  var query = new URLSearchParams(location.search);
  try {
    if (location.protocol !== 'file:' && typeof Worker === 'function' && !window.COMMLAB_NO_WORKER) {
      // A frame of a course page shares one engine with the lab's other frames there (a
      // SharedWorker: one per storage partition, so per course page); engine/door.js falls back
      // to a worker of its own when the browser refuses it.
      var framed = window.parent !== window && query.has('exercise');
      if (framed && typeof SharedWorker === 'function' && !window.COMMLAB_NO_SHARED) {
        boot.worker = new SharedWorker('engine/worker.js', { type: 'module', name: 'commlab-engine' });
        boot.shared = true;
      } else {
        // The exercises and Explore need only the engine's lean module; another view (a
        // section's, the measured one, authoring) starts with the full one (engine/worker.js).
        var view = query.get('view');
        boot.engine = view && view !== 'explore' && view !== 'topics' && !query.has('exercise') ? 'full' : 'lean';
        // After "reload with the served files" (app/engine_start.js): not the build's copies.
        try {
          if (sessionStorage.getItem('commlab.v2.documents') === 'served') boot.documents = 'served';
        } catch (e) {
          // no sessionStorage: the build's copies
        }
        var search = (boot.engine === 'full' ? '&engine=full' : '') + (boot.documents ? '&documents=served' : '');
        boot.worker = new Worker('engine/worker.js' + (search ? '?' + search.slice(1) : ''), { type: 'module' });
      }
      // A worker that fails before engine/door.js listens: the door sees it here.
      boot.worker.onerror = function (e) {
        e.preventDefault();
        boot.failed = String(e.message || 'the worker could not start');
      };
      // It compiles the engine once the page is first painted (engine/worker.js): a frame's
      // callbacks run just before its paint, the timeout after it.
      var port = boot.shared ? boot.worker.port : boot.worker;
      requestAnimationFrame(function () {
        setTimeout(function () {
          port.postMessage({ type: 'painted' });
        }, 0);
      });
      // What a dedicated worker says before the door listens (the documents' fingerprints, sent
      // unasked: engine/worker.js) is kept for the door; a shared worker's port keeps it itself.
      boot.early = [];
      if (!boot.shared) {
        boot.worker.onmessage = function (e) {
          boot.early.push(e.data);
        };
      }
    }
  } catch (e) {
    boot.worker = null; // engine/door.js then runs the engine on the main thread
  }

  // A file of the build, read as `how` ('json' or 'text'); `none` when it cannot be had.
  function fetched(url, how, none) {
    return fetch(url).then(function (r) {
      return r.ok ? r[how]() : none;
    }).catch(function () {
      return none;
    });
  }
  // The engine's answers to the first render, computed at build (web/tools/prerender.mjs;
  // app/engine_start.js takes them): fetched and read now, between the parser's tasks. Fetched
  // by the page's modules instead, the response waited ~80 ms behind the page's start-up.
  // Without them, the page asks the engine.
  if (location.protocol !== 'file:' && typeof fetch === 'function') {
    boot.first = fetched('engine/first.json', 'json', null);
  }

  // The language the page will show (app/main.js decides the same way): the prerendered cards of
  // the other language stay hidden (styles.css), so nothing flashes in the wrong language.
  var lang = query.get('lang');
  if (lang !== 'en' && lang !== 'zh') {
    try {
      lang = JSON.parse(localStorage.getItem('commlab.v2.lang'));
    } catch (e) {
      lang = null;
    }
  }
  if (lang !== 'en' && lang !== 'zh') lang = /^zh\b/i.test(navigator.language || '') ? 'zh' : 'en';
  root.setAttribute('data-lang', lang);
  // index.html holds the prerendered cards of its first language; another's are in a file of
  // their own (data-cards, web/tools/prerender.mjs), fetched here for its readers alone and put
  // in place by app/live_cards.js. The single-file page holds them all and names none.
  var cardFiles = (root.getAttribute('data-cards') || '').split(' ');
  for (var c = 0; c < cardFiles.length; c++) {
    var named = cardFiles[c].split(':');
    // Without them, the live cards come with the engine.
    if (named[0] === lang && named[1] && typeof fetch === 'function') {
      boot.cards = fetched(named[1], 'text', '');
    }
  }
  // ?exercise=N shows one card: the others are hidden before they are ever painted.
  if (query.has('exercise')) {
    root.setAttribute('data-only', query.get('exercise'));
    // A constructed stylesheet (allowed by the page's CSP, unlike a <style> element).
    try {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync('section.card[data-prerendered]:not([data-exercise="' + CSS.escape(query.get('exercise')) +
        '"]) { display: none; }');
      document.adoptedStyleSheets = document.adoptedStyleSheets.concat([sheet]);
    } catch (e) {
      // no rule: the other prerendered cards show until the live card replaces them
    }
  }
  // ?view=author (the authoring view) and ?view=measured show no lecture card: the prerendered
  // ones never paint.
  if ((query.get('view') === 'author' || query.get('view') === 'measured') && !query.has('exercise')) {
    try {
      var authorSheet = new CSSStyleSheet();
      authorSheet.replaceSync('section.card[data-prerendered] { display: none; }');
      document.adoptedStyleSheets = document.adoptedStyleSheets.concat([authorSheet]);
    } catch (e) {
      // no rule: the prerendered cards show until app/main.js removes them
    }
  }
  // Embedded (app/main.js: framed, or embed=1): no page header or contents, from the first paint.
  if (query.has('exercise') && (window.parent !== window || query.get('embed') === '1')) root.classList.add('embed');
  // theme=light|dark (app/address.js checks it and names a bad one): from the first paint, so a
  // course site's dark page never shows a white card first.
  var theme = query.get('theme');
  if (theme === 'light' || theme === 'dark') root.setAttribute('data-theme', theme);

  // A check before the engine is ready: no verdict, a clear word (util/i18n.js checkWaits says
  // the same on a live card), and the check runs once the
  // live card is there (app/main.js reads boot.checks).
  var WAIT = {
    en: 'The engine is still loading: your answers will be checked as soon as it is ready.',
    zh: '引擎仍在加载：就绪后会立即检查你的答案。',
  };
  // No engine could be had (util/i18n.js checkNoEngine says the same on a live card).
  var NONE = {
    en: 'The engine could not be loaded, so answers cannot be checked now. Your answers are kept.',
    zh: '引擎未能加载，现在无法检查答案。你的答案已保留。',
  };
  // What is typed into a prerendered card is kept in this tab (sessionStorage) until the live
  // card takes it over (app/main.js carryTyped): a reload after an engine that could not be had
  // (its Retry) puts it back. Untrusted on reading: only strings, by own keys.
  var TYPED_KEY = 'commlab.v2.typed';
  var TYPED_MAX_CHARS = 200;
  function readTyped() {
    try {
      var v = JSON.parse(sessionStorage.getItem(TYPED_KEY));
      return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
    } catch (e) {
      return {};
    }
  }
  function own(o, k) {
    return o && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
  }
  boot.typed = function (id) {
    var mine = own(readTyped(), String(id));
    var out = Object.create(null);
    if (mine && typeof mine === 'object') {
      for (var k in mine) if (Object.prototype.hasOwnProperty.call(mine, k) && typeof mine[k] === 'string') out[k] = mine[k];
    }
    return out;
  };
  boot.forgetTyped = function (id) {
    try {
      var all = readTyped();
      if (own(all, String(id)) === undefined) return;
      delete all[String(id)];
      if (Object.keys(all).length) sessionStorage.setItem(TYPED_KEY, JSON.stringify(all));
      else sessionStorage.removeItem(TYPED_KEY);
    } catch (e) {
      // sessionStorage blocked: nothing was kept
    }
  };
  document.addEventListener('input', function (e) {
    var input = e.target;
    var name = input && input.getAttribute && input.getAttribute('data-answer');
    var card = name && input.closest('section.card[data-prerendered]');
    if (!card) return;
    try {
      var all = readTyped();
      var id = String(card.dataset.exercise);
      var mine = own(all, id);
      if (!mine || typeof mine !== 'object' || Array.isArray(mine)) mine = {};
      mine[name] = String(input.value).slice(0, TYPED_MAX_CHARS);
      all[id] = mine;
      sessionStorage.setItem(TYPED_KEY, JSON.stringify(all));
    } catch (err) {
      // sessionStorage blocked or full: the text stays in the field
    }
  }, true);
  // What was kept is put back into the prerendered cards under `scope` (those of index.html once
  // parsed; those fetched, by app/live_cards.js).
  boot.fillTyped = function (scope) {
    var cards = scope.querySelectorAll('section.card[data-prerendered]');
    for (var i = 0; i < cards.length; i++) {
      var typed = boot.typed(cards[i].dataset.exercise);
      var inputs = cards[i].querySelectorAll('[data-answer]');
      for (var j = 0; j < inputs.length; j++) {
        var text = typed[inputs[j].getAttribute('data-answer')];
        if (text !== undefined && !inputs[j].value) inputs[j].value = text;
      }
    }
  };
  document.addEventListener('DOMContentLoaded', function () {
    boot.fillTyped(document);
  });

  // A card that becomes live just after the page is ready (app/live_cards.js: those on
  // screen first, the others a task each).
  var SOON = {
    en: 'This card is being made ready: your answers will be checked in a moment.',
    zh: '此卡片正在就绪：稍后会检查你的答案。',
  };
  document.addEventListener('submit', function (e) {
    var form = e.target;
    var card = form && form.closest && form.closest('section.card[data-prerendered]');
    if (!card) return;
    e.preventDefault();
    var summary = form.querySelector('[data-role="summary"]');
    var failed = root.getAttribute('data-engine') === 'failed';
    var ready = root.getAttribute('data-ready') === 'true';
    if (summary) {
      summary.textContent = failed ? NONE[lang] || NONE.en : ready ? SOON[lang] || SOON.en : WAIT[lang] || WAIT.en;
      summary.setAttribute('data-state', failed ? 'engine-stopped' : 'engine-loading');
    }
    if (!failed && boot.checks.indexOf(card.dataset.exercise) < 0) boot.checks.push(card.dataset.exercise);
  }, true);
})();
