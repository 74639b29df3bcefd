// Runs inside each client's QuickJS context, before the learner's program.
// It turns the few host functions in `__host` into Node-like globals and a
// `require` with the lab's modules. Intrinsics are captured first so a
// program that tampers with prototypes only breaks itself.
//
// Op names are never spelled here: `__host.names` is the host's own table
// (server/sandbox/worker/guest-names.ts), frozen — CALL for host calls,
// REQUEST for async requests (Redis, the lab's store), DISPATCH for the host's entries into us.
(function () {
  'use strict';
  const host = globalThis.__host;
  delete globalThis.__host;
  const hostCall = host.call;
  const hostNow = host.now;
  const hostPerf = host.perf;
  const CALL = host.names.call;
  const REQUEST = host.names.request;
  const DISPATCH = host.names.dispatch;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const RealDate = Date;
  const RealPromise = Promise;
  const RealError = Error;
  const RealMap = Map;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapDelete = Map.prototype.delete;
  const apply = Reflect.apply;
  const promiseThen = Promise.prototype.then;
  const arraySlice = Array.prototype.slice;
  function slice(args, from) { return apply(arraySlice, args, [from]); }
  const defineProperty = Object.defineProperty;

  function call(op, payload) {
    const out = hostCall(op, payload === undefined ? '' : stringify(payload));
    return out === '' ? undefined : parse(out);
  }

  // ---- errors ---------------------------------------------------------------
  class ReplyError extends RealError {
    constructor(message) {
      super(message);
      this.name = 'ReplyError';
    }
  }

  function toGuestError(e) {
    const err = e.name === 'ReplyError' ? new ReplyError(e.message) : new RealError(e.message);
    if (e.name && e.name !== 'ReplyError') err.name = e.name;
    if (e.code !== undefined) err.code = e.code;
    if (e.command !== undefined) err.command = e.command;
    return err;
  }

  function describe(e) {
    try {
      if (e instanceof RealError || (e && typeof e === 'object' && 'message' in e)) {
        return { name: String(e.name || 'Error'), message: String(e.message), stack: typeof e.stack === 'string' ? e.stack : '' };
      }
      return { name: 'Error', message: 'Uncaught ' + inspect(e), stack: '' };
    } catch (_) {
      return { name: 'Error', message: 'Uncaught exception', stack: '' };
    }
  }

  // ---- async requests to the host -------------------------------------------
  // A host call costs far more than a guest function call, and Redlock-style code sends several
  // requests in one go: the first request of a slice goes to the host at once (which then knows
  // to collect the rest), later ones wait in the outbox the host takes when the slice ends.
  // The host sends nothing before the slice ends either way, so the order on the wire is the same.
  const pending = new RealMap();
  let nextRequest = 1;
  let outbox = null;
  // Where the learner's code asked: an error that comes back later (a node down, a timeout) carries this stack, as
  // its own would be empty (it is made in a later turn), so it points at the learner's line that sent the command.
  function request(op, payload) {
    const site = new RealError().stack;
    return new RealPromise(function (resolve, reject) {
      const id = nextRequest++;
      apply(mapSet, pending, [id, { resolve: resolve, reject: reject, site: site }]);
      if (outbox === null) {
        outbox = [];
        call(CALL.request, [id, op, payload]);
      } else {
        outbox[outbox.length] = [id, op, payload];
      }
    });
  }
  function takeOutbox() {
    const taken = outbox;
    outbox = null;
    return taken === null || taken.length === 0 ? '' : stringify(taken);
  }
  function settle(id, ok, value) {
    const p = apply(mapGet, pending, [id]);
    if (!p) return;
    apply(mapDelete, pending, [id]);
    if (ok) p.resolve(value);
    else {
      const err = toGuestError(value);
      if (typeof p.site === 'string') err.stack = p.site.replace(/^[^\n]*\n?/, '');
      p.reject(err);
    }
  }

  // ---- events ---------------------------------------------------------------
  class EventEmitter {
    constructor() {
      defineProperty(this, '_events', { value: Object.create(null), writable: true });
    }
    on(name, fn) {
      (this._events[name] || (this._events[name] = [])).push({ fn: fn, once: false });
      return this;
    }
    addListener(name, fn) {
      return this.on(name, fn);
    }
    once(name, fn) {
      (this._events[name] || (this._events[name] = [])).push({ fn: fn, once: true });
      return this;
    }
    off(name, fn) {
      const list = this._events[name];
      if (list) this._events[name] = list.filter(function (l) { return l.fn !== fn; });
      return this;
    }
    removeListener(name, fn) {
      return this.off(name, fn);
    }
    removeAllListeners(name) {
      if (name === undefined) this._events = Object.create(null);
      else delete this._events[name];
      return this;
    }
    listenerCount(name) {
      return (this._events[name] || []).length;
    }
    emit(name) {
      const args = Array.prototype.slice.call(arguments, 1);
      const list = this._events[name];
      if (!list || list.length === 0) {
        if (name === 'error') throw args[0] instanceof RealError ? args[0] : new RealError('Unhandled error. (' + inspect(args[0]) + ')');
        return false;
      }
      this._events[name] = list.filter(function (l) { return !l.once; });
      for (const l of list) apply(l.fn, this, args);
      return true;
    }
  }

  // ---- console --------------------------------------------------------------
  function inspect(v, depth) {
    depth = depth || 0;
    if (typeof v === 'string') return depth ? "'" + v + "'" : v;
    if (v instanceof RealError) return v.stack ? v.name + ': ' + v.message + '\n' + v.stack.replace(/\n$/, '') : v.name + ': ' + v.message;
    if (typeof v === 'function') return '[Function: ' + (v.name || 'anonymous') + ']';
    if (typeof v === 'symbol' || typeof v === 'bigint') return String(v);
    if (v === null || typeof v !== 'object') return String(v);
    if (depth > 2) return Array.isArray(v) ? '[Array]' : '[Object]';
    if (v instanceof RealDate) return v.toISOString();
    if (Array.isArray(v)) return '[ ' + v.map(function (x) { return inspect(x, depth + 1); }).join(', ') + ' ]';
    const keys = Object.keys(v);
    if (keys.length === 0) return '{}';
    return '{ ' + keys.map(function (k) { return k + ': ' + inspect(v[k], depth + 1); }).join(', ') + ' }';
  }
  function format(args) {
    return Array.prototype.map.call(args, function (a) { return inspect(a, 0); }).join(' ');
  }
  const console = {
    log: function () { call(CALL.console, { level: 'log', text: format(arguments) }); },
    info: function () { call(CALL.console, { level: 'info', text: format(arguments) }); },
    debug: function () { call(CALL.console, { level: 'log', text: format(arguments) }); },
    warn: function () { call(CALL.console, { level: 'warn', text: format(arguments) }); },
    error: function () { call(CALL.console, { level: 'error', text: format(arguments) }); },
  };

  // ---- uncaught errors ------------------------------------------------------
  function uncaught(e, kind) {
    call(CALL.uncaught, { kind: kind, error: describe(e) });
  }
  function runCallback(fn, thisArg, args) {
    try {
      const r = apply(fn, thisArg, args);
      if (r instanceof RealPromise) apply(promiseThen, r, [undefined, function (e) { uncaught(e, 'unhandledRejection'); }]);
      else if (r && typeof r.then === 'function') r.then(undefined, function (e) { uncaught(e, 'unhandledRejection'); });
    } catch (e) {
      uncaught(e, 'uncaughtException');
    }
  }

  // ---- timers (host-driven, so a paused client's timers wait) ---------------
  const timers = new RealMap();
  let nextTimer = 1;
  class Timeout {
    constructor(id) {
      defineProperty(this, '_id', { value: id });
    }
    ref() { call(CALL.timerRef, [this._id, true]); return this; }
    unref() { call(CALL.timerRef, [this._id, false]); return this; }
    hasRef() { return true; }
    refresh() { call(CALL.timerRefresh, this._id); return this; }
    [Symbol.toPrimitive]() { return this._id; }
  }
  function addTimer(fn, ms, args, repeat) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    const id = nextTimer++;
    apply(mapSet, timers, [id, { fn: fn, args: args, repeat: repeat }]);
    let delay = Number(ms);
    if (!(delay >= 1 && delay <= 2147483647)) delay = 1;
    call(CALL.timerSet, [id, delay, repeat]);
    return new Timeout(id);
  }
  function clearTimer(t) {
    const id = t instanceof Timeout ? t._id : Number(t);
    if (apply(mapDelete, timers, [id])) call(CALL.timerClear, id);
  }
  function setTimeout(fn, ms) { return addTimer(fn, ms, slice(arguments, 2), false); }
  function setInterval(fn, ms) { return addTimer(fn, ms, slice(arguments, 2), true); }
  function setImmediate(fn) { return addTimer(fn, 0, slice(arguments, 1), false); }

  // ---- clock: the client's skewed wall clock; performance.now stays monotonic
  function LabDate() {
    if (!new.target) return new RealDate(hostNow()).toString();
    if (arguments.length === 0) return new RealDate(hostNow());
    return Reflect.construct(RealDate, Array.prototype.slice.call(arguments));
  }
  LabDate.prototype = RealDate.prototype;
  LabDate.now = function now() { return hostNow(); };
  LabDate.parse = RealDate.parse;
  LabDate.UTC = RealDate.UTC;

  // ---- Math.random: the client's own stream, drawn from the run's seed -----
  // (worker/client-random.ts), so the same seed replays the same values. QuickJS's own is unseeded.
  // Values come in batches, growing, since a host call costs far more than a guest function call.
  let randomValues = [];
  let randomNext = 0;
  let randomBatch = 8;
  function random() {
    if (randomNext >= randomValues.length) {
      randomValues = call(CALL.mathRandom, randomBatch);
      randomNext = 0;
      if (randomBatch < 256) randomBatch *= 2;
    }
    return randomValues[randomNext++];
  }
  defineProperty(Math, 'random', { value: random, writable: true, enumerable: false, configurable: true });

  // ---- dispatch: the only way the host calls into the client ----------------
  // DISPATCH.inbox carries, in arrival order, replies ([0, id, value] / [1, id, error]) and connection
  // events ([2, conn, event]) that reached the host together; DISPATCH.timer fires one timer.
  const connListeners = new RealMap();
  function dispatch(kind, id, json) {
    if (kind === DISPATCH.inbox) {
      const items = parse(json);
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (item[0] === 2) {
          const l = apply(mapGet, connListeners, [item[1]]);
          if (l) runCallback(l, undefined, [item[2]]);
        } else {
          settle(item[1], item[0] === 0, item[2]);
        }
      }
    } else if (kind === DISPATCH.timer) {
      const t = apply(mapGet, timers, [id]);
      if (!t) return;
      if (!t.repeat) apply(mapDelete, timers, [id]);
      runCallback(t.fn, undefined, t.args);
    }
  }

  // ---- modules --------------------------------------------------------------
  const factories = Object.create(null);
  const cache = Object.create(null);
  const AVAILABLE = 'ioredis, redis, redlock, crypto, node-cron, lab, events, timers, timers/promises';
  function define(name, factory) { factories[name] = factory; }
  function requireModule(name) {
    const key = String(name).replace(/^node:/, '');
    if (key in cache) return cache[key];
    const factory = factories[key];
    if (!factory) {
      const err = new RealError("Cannot find module '" + String(name) + "'. The lab provides: " + AVAILABLE + '.');
      err.code = 'MODULE_NOT_FOUND';
      throw err;
    }
    cache[key] = factory();
    return cache[key];
  }

  // ---- the learner's view of a module -----------------------------------------
  // A member that does not exist is an error at the learner's line, not a silent undefined:
  // `lab.clientID` would make every client look alike, `lab.stor.write` fail far from the typo.
  // Only reads made on the module itself (or one of its plain objects, like lab.store) are
  // checked: a subclass or an instance inherits from it unchecked, and the names JavaScript
  // itself probes for (a thenable's `then`, the import interop's `__esModule`, `toJSON`) read
  // as usual. Our own modules keep the raw objects (`L.require`), so nothing of ours can trip.
  const RealProxy = Proxy;
  const reflectGet = Reflect.get;
  const getPrototypeOf = Object.getPrototypeOf;
  const ownNames = Object.getOwnPropertyNames;
  const PROBED = { then: true, __esModule: true, toJSON: true, constructor: true };
  const HIDDEN = { default: true, length: true, name: true, prototype: true, __esModule: true, caller: true, arguments: true };
  function memberNames(target) {
    return ownNames(target).filter(function (n) { return !HIDDEN[n] && n[0] !== '_'; });
  }
  function unknownMember(what, key, target) {
    const names = memberNames(target);
    const lower = key.toLowerCase();
    const near = names.filter(function (n) { return n.toLowerCase() === lower; })[0];
    const err = new TypeError(
      what + " has no member '" + key + "'." + (near ? " Did you mean '" + near + "'?" : '') + ' It has: ' + names.join(', ') + '.',
    );
    err.code = 'ERR_NO_SUCH_MEMBER';
    return err;
  }
  function guardModule(what, target) {
    const children = new RealMap();
    const proxy = new RealProxy(target, {
      get: function (t, key, receiver) {
        if (receiver !== proxy || typeof key !== 'string') return reflectGet(t, key, receiver);
        if (!(key in t) && !PROBED[key]) throw unknownMember(what, key, t);
        const value = reflectGet(t, key, receiver);
        if (value === t) return proxy; // Redis.default, Redlock.Redlock: the module again
        if (value && typeof value === 'object' && getPrototypeOf(value) === Object.prototype) {
          let child = apply(mapGet, children, [key]);
          if (!child) {
            child = guardModule(what.replace(/^The '(.*)' module$/, '$1') + '.' + key, value);
            apply(mapSet, children, [key, child]);
          }
          return child;
        }
        return value;
      },
    });
    return proxy;
  }
  const learnerCache = Object.create(null);
  function learnerRequire(name) {
    const key = String(name).replace(/^node:/, '');
    if (key in learnerCache) return learnerCache[key];
    const m = requireModule(name);
    learnerCache[key] = m !== null && (typeof m === 'object' || typeof m === 'function') ? guardModule("The '" + key + "' module", m) : m;
    return learnerCache[key];
  }

  const info = call(CALL.info);
  const lab = {
    CALL: CALL,
    REQUEST: REQUEST,
    call: call,
    request: request,
    connListeners: connListeners,
    toGuestError: toGuestError,
    ReplyError: ReplyError,
    EventEmitter: EventEmitter,
    define: define,
    require: requireModule,
    setTimeout: setTimeout,
    clearTimeout: clearTimer,
    inspect: inspect,
    describe: describe,
    info: info,
    perf: hostPerf,
  };

  define('events', function () {
    const m = EventEmitter;
    m.EventEmitter = EventEmitter;
    m.default = EventEmitter;
    return m;
  });
  define('timers', function () {
    return { setTimeout: setTimeout, setInterval: setInterval, setImmediate: setImmediate, clearTimeout: clearTimer, clearInterval: clearTimer, clearImmediate: clearTimer };
  });
  define('timers/promises', function () {
    return {
      setTimeout: function (ms, value) { return new RealPromise(function (r) { setTimeout(function () { r(value); }, ms); }); },
      setImmediate: function (value) { return new RealPromise(function (r) { setImmediate(function () { r(value); }); }); },
    };
  });

  globalThis.console = console;
  globalThis.setTimeout = setTimeout;
  globalThis.setInterval = setInterval;
  globalThis.setImmediate = setImmediate;
  globalThis.clearTimeout = clearTimer;
  globalThis.clearInterval = clearTimer;
  globalThis.clearImmediate = clearTimer;
  globalThis.queueMicrotask = function (fn) { RealPromise.resolve().then(function () { runCallback(fn, undefined, []); }); };
  globalThis.Date = LabDate;
  globalThis.performance = { now: function () { return hostPerf(); }, timeOrigin: 0 };
  globalThis.global = globalThis;
  globalThis.process = undefined;
  delete globalThis.process;
  globalThis.__lab_internal = lab;
  globalThis.__lab_dispatch = dispatch;
  globalThis.__lab_take = takeOutbox;
  globalThis.__lab_main = function (fn, fileName) {
    const module = { exports: {} };
    let p;
    try {
      // Like Node's CommonJS: top-level `this` is module.exports.
      p = apply(fn, module.exports, [module.exports, learnerRequire, module, fileName, '/lab']);
    } catch (e) {
      call(CALL.mainDone, { ok: false, error: describe(e) });
      return;
    }
    apply(promiseThen, p, [
      function () { call(CALL.mainDone, { ok: true }); },
      function (e) { call(CALL.mainDone, { ok: false, error: describe(e) }); },
    ]);
    // The host keeps it: a program stopped by a limit rejects it with the interrupt's position,
    // and no handler of ours may run any more to say so (worker/guest-runtime.ts).
    return p;
  };
})();
