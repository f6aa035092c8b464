// The worker protocol, kept free of Worker and DOM so Node tests run it over a plain channel.
// Client to worker: {type: 'ask', id, requests: [..]} and {type: 'cancel', id}.
// Worker to client: {type: 'answer', id, responses: [..]}, {type: 'cancelled', id} or
// {type: 'failed', id, error: {code, message}}. A request still queued when its cancel arrives
// never runs; one already running finishes, and its answer is dropped by the client. A response
// may travel as JSON text (the worker sends the engine's text): the client parses only the
// answers still wanted, so superseded ones cost the page nothing.

/** The worker side: `evaluate(request)` answers one request; `post(message)` sends back. */
export function createServer(evaluate, post, defer = (f) => setTimeout(f, 0)) {
  const queue = [];
  const cancelled = new Set();
  let scheduled = false;
  function drain() {
    scheduled = false;
    const job = queue.shift();
    if (!job) return;
    if (cancelled.delete(job.id)) post({ type: 'cancelled', id: job.id });
    else {
      try {
        if (!Array.isArray(job.requests)) throw new Error('requests: not an array');
        post({ type: 'answer', id: job.id, responses: job.requests.map((r) => evaluate(r)) });
      } catch (e) {
        post({ type: 'failed', id: job.id, error: { code: 'worker_exception', message: String(e?.message ?? e) } });
      }
    }
    if (queue.length && !scheduled) {
      scheduled = true;
      defer(drain);
    }
  }
  function receive(message) {
    if (message?.type === 'cancel') {
      if (queue.some((j) => j.id === message.id)) cancelled.add(message.id);
      return;
    }
    if (message?.type !== 'ask') {
      post({ type: 'failed', id: message?.id ?? null, error: { code: 'bad_message', message: `unknown message type ${String(message?.type)}` } });
      return;
    }
    queue.push({ id: message.id, requests: message.requests });
    // Deferred, so a cancel that arrives meanwhile is seen before the request runs.
    if (!scheduled) {
      scheduled = true;
      defer(drain);
    }
  }
  /** True when nothing is queued or about to run (the worker may then warm up). */
  receive.idle = () => queue.length === 0 && !scheduled;
  return receive;
}

/**
 * The page side: `post(message)` sends to the worker; feed the worker's messages to `receive`.
 * `ask(requests, key)` resolves to the responses, or to null when a later ask with the same key
 * superseded it (the older one is cancelled).
 *
 * The watchdog (`budget_ms(requests)` gives a job its time, `onStall(job)` hears when it ran
 * out): the worker answers in order, so only the oldest pending job is timed, from when it
 * became the oldest; it runs once `watch()` says the engine is up (a job asked while the
 * engine loads waits for it, under the start-up's own timeout).
 */
export function createClient(post, { budget_ms = null, onStall = () => {} } = {}) {
  let next = 1;
  const pending = new Map(); // id -> {resolve, key, requests}, oldest first
  const latest = new Map(); // key -> id
  let watching = false;
  let timed = null; // {id, timer}: the oldest pending job's deadline
  function rearm() {
    const head = pending.keys().next();
    const id = head.done ? null : head.value;
    if (timed && timed.id === id) return;
    if (timed) clearTimeout(timed.timer);
    timed = null;
    if (!watching || id === null || !budget_ms) return;
    const job = pending.get(id);
    timed = { id, timer: setTimeout(() => { timed = null; onStall({ id, requests: job.requests }); }, budget_ms(job.requests)) };
  }
  function settle(id, value) {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (p.key != null && latest.get(p.key) === id) latest.delete(p.key);
    rearm();
    p.resolve(Array.isArray(value) ? value.map((r) => (typeof r === 'string' ? JSON.parse(r) : r)) : value);
  }
  return {
    ask(requests, key = null) {
      const id = next++;
      if (key != null && latest.has(key)) {
        const old = latest.get(key);
        post({ type: 'cancel', id: old });
        settle(old, null);
      }
      if (key != null) latest.set(key, id);
      return new Promise((resolve) => {
        pending.set(id, { resolve, key, requests });
        post({ type: 'ask', id, requests });
        rearm();
      });
    },
    receive(message) {
      if (message?.type === 'answer') settle(message.id, message.responses);
      else if (message?.type === 'cancelled') settle(message.id, null);
      else if (message?.type === 'failed') {
        const p = pending.get(message.id);
        if (p) settle(message.id, [{ error: message.error }]);
      }
    },
    /** Starts the watchdog (the engine is up). */
    watch() {
      watching = true;
      rearm();
    },
    /** Every pending ask resolves with this error (the worker died). */
    failAll(error) {
      for (const id of [...pending.keys()]) settle(id, [{ error }]);
    },
    /**
     * Takes every pending ask out, oldest first, unanswered: [{requests, key, resolve}] (the
     * worker died; the caller answers each, on another engine or with an error). The client
     * is then empty and its watchdog stopped.
     */
    takeAll() {
      const jobs = [...pending.values()];
      pending.clear();
      latest.clear();
      watching = false;
      rearm();
      return jobs;
    },
    get pending() {
      return pending.size;
    },
  };
}
