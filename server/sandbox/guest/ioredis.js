// The `ioredis` module inside the sandbox. It is thin: the connection and
// every command live in the host (the worker), which talks to the lab's node
// through this client's own link.
(function (L) {
  'use strict';
  const call = L.call;
  const request = L.request;
  const CALL = L.CALL;
  const REQUEST = L.REQUEST;
  const EventEmitter = L.EventEmitter;
  const flatten = L.redisShared.flatten;
  const parseUrl = L.redisShared.parseUrl;
  const pairsToObject = L.redisShared.pairsToObject;

  const COMMANDS = [
    'get', 'set', 'del', 'exists', 'incr', 'incrby', 'decr', 'decrby', 'expire', 'pexpire', 'expireat', 'pexpireat',
    'ttl', 'pttl', 'persist', 'eval', 'evalsha', 'script', 'ping', 'echo', 'time', 'type', 'keys', 'scan', 'mget', 'mset',
    'setnx', 'setex', 'psetex', 'getset', 'getdel', 'append', 'strlen', 'rename', 'unlink', 'dbsize', 'info', 'publish',
    'hget', 'hset', 'hmset', 'hgetall', 'hdel', 'hincrby', 'hexists', 'hkeys', 'hlen',
    'lpush', 'rpush', 'lpop', 'rpop', 'lrange', 'llen', 'ltrim',
    'sadd', 'srem', 'smembers', 'sismember', 'scard',
    'zadd', 'zrange', 'zrangebyscore', 'zrem', 'zscore', 'zcard', 'zincrby',
    'watch', 'unwatch', 'wait', 'client', 'flushdb', 'flushall',
  ];

  function pickOptions(o) {
    const out = {};
    for (const k of ['connectTimeout', 'commandTimeout', 'maxRetriesPerRequest', 'enableOfflineQueue', 'lazyConnect', 'db']) {
      if (o[k] !== undefined) out[k] = o[k];
    }
    return out;
  }

  class Redis extends EventEmitter {
    constructor(a, b, c) {
      super();
      let opts = {};
      if (typeof a === 'number' || (typeof a === 'string' && /^\d+$/.test(a))) {
        opts.port = Number(a);
        if (typeof b === 'string') { opts.host = b; if (c && typeof c === 'object') Object.assign(opts, c); }
        else if (b && typeof b === 'object') Object.assign(opts, b);
      } else if (typeof a === 'string') {
        opts = Object.assign(parseUrl(a), b && typeof b === 'object' ? b : {});
      } else if (a && typeof a === 'object') {
        opts = Object.assign({}, a);
      }
      if (opts.host === undefined) opts.host = 'localhost';
      if (opts.port === undefined) opts.port = 6379;
      this.options = opts;
      this.status = opts.lazyConnect ? 'wait' : 'connecting';
      this._id = 0;
      this._scripts = {};
      if (!opts.lazyConnect) this._open();
    }
    _open() {
      if (this._id) return;
      const self = this;
      this._id = call(CALL.connect, { flavor: 'ioredis', host: String(this.options.host), port: Number(this.options.port), options: pickOptions(this.options) });
      L.connListeners.set(this._id, function (ev) {
        if (ev.event === 'error') {
          const err = L.toGuestError(ev.error);
          if (self.listenerCount('error') > 0) self.emit('error', err);
          else call(CALL.console, { level: 'error', text: '[ioredis] Unhandled error event: ' + err.name + ': ' + err.message });
          return;
        }
        self.status = ev.event === 'ready' ? 'ready' : ev.event;
        self.emit(ev.event);
      });
      this.status = 'connecting';
    }
    connect(cb) {
      this._open();
      const self = this;
      const p = this.status === 'ready' ? Promise.resolve() : new Promise(function (resolve, reject) {
        self.once('ready', resolve);
        self.once('error', reject);
      });
      if (typeof cb === 'function') p.then(function () { cb(null); }, cb);
      return p;
    }
    call() {
      let args = Array.prototype.slice.call(arguments);
      let cb;
      if (typeof args[args.length - 1] === 'function') cb = args.pop();
      if (args.length === 1 && Array.isArray(args[0])) args = args[0];
      return this._send(flatten(args), cb);
    }
    send_command(name) {
      return this.call.apply(this, arguments);
    }
    sendCommand(name) {
      return this.call.apply(this, arguments);
    }
    _send(args, cb) {
      if (!this._id) this._open();
      const p = request(REQUEST.command, { conn: this._id, args: args });
      if (typeof cb === 'function') p.then(function (v) { cb(null, v); }, function (e) { cb(e); });
      return p;
    }
    hgetall(key, cb) {
      const p = this._send(flatten(['hgetall', key])).then(function (arr) {
        const o = {};
        for (let i = 0; i + 1 < arr.length; i += 2) o[arr[i]] = arr[i + 1];
        return o;
      });
      if (typeof cb === 'function') p.then(function (v) { cb(null, v); }, cb);
      return p;
    }
    defineCommand(name, definition) {
      const lua = String(definition.lua);
      const numberOfKeys = definition.numberOfKeys;
      const sha = call(CALL.hash, { algorithm: 'sha1', data: lua, encoding: 'hex' });
      const self = this;
      this._scripts[name] = { lua: lua, numberOfKeys: numberOfKeys };
      this[name] = function () {
        let args = flatten(Array.prototype.slice.call(arguments));
        let cb;
        if (typeof arguments[arguments.length - 1] === 'function') { cb = arguments[arguments.length - 1]; args = args.slice(0, -1); }
        const head = typeof numberOfKeys === 'number' ? [String(numberOfKeys)] : [];
        // Like ioredis: EVALSHA first, EVAL when the node does not know the script yet.
        const p = self._send(['evalsha', sha].concat(head, args)).catch(function (e) {
          if (String(e.message).indexOf('NOSCRIPT') === 0) return self._send(['eval', lua].concat(head, args));
          throw e;
        });
        if (cb) p.then(function (v) { cb(null, v); }, cb);
        return p;
      };
    }
    duplicate(override) {
      return new Redis(Object.assign({}, this.options, override || {}));
    }
    quit(cb) {
      if (!this._id) { this.status = 'end'; return Promise.resolve('OK'); }
      const self = this;
      this.status = 'end';
      const p = request(REQUEST.quit, this._id).then(function (v) { self.emit('end'); return v; });
      if (typeof cb === 'function') p.then(function (v) { cb(null, v); }, cb);
      return p;
    }
    disconnect() {
      if (this._id) call(CALL.disconnect, this._id);
      this.status = 'end';
    }
    multi(commands, options) {
      if (commands && !Array.isArray(commands)) { options = commands; commands = undefined; }
      if (options && options.pipeline === false) {
        throw new Error('multi({ pipeline: false }) is not available in the lab: queue the commands on multi() and call exec().');
      }
      return new Pipeline(this, true, commands);
    }
    pipeline(commands) {
      return new Pipeline(this, false, commands);
    }
  }
  for (const name of COMMANDS) {
    if (Redis.prototype[name]) continue;
    Redis.prototype[name] = function () {
      let args = Array.prototype.slice.call(arguments);
      let cb;
      if (typeof args[args.length - 1] === 'function') cb = args.pop();
      return this._send(flatten([name].concat(args)), cb);
    };
  }

  // ioredis's multi() and pipeline(): commands queue here and leave together on exec(), in one
  // write (a transaction wrapped in MULTI/EXEC). exec() answers [[error, result], ...] like ioredis,
  // or null when a WATCHed key changed and EXEC ran nothing.
  class Pipeline {
    constructor(redis, atomic, commands) {
      this.redis = redis;
      this._atomic = atomic;
      this._queue = [];
      this._transforms = [];
      this._done = false;
      for (const name of Object.keys(redis._scripts)) this._addScript(name, redis._scripts[name]);
      if (Array.isArray(commands)) {
        for (const c of commands) {
          const parts = Array.isArray(c) ? c : [c];
          const fn = typeof this[parts[0]] === 'function' && parts[0] !== 'exec' ? this[parts[0]] : null;
          if (fn) fn.apply(this, parts.slice(1));
          else this.call.apply(this, parts);
        }
      }
    }
    get length() {
      return this._queue.length;
    }
    _queueCommand(args, transform) {
      if (this._done) throw new Error('Pipeline cannot be used to send any commands when the `exec()` has been called on it.');
      this._queue.push(args);
      this._transforms.push(transform || null);
      return this;
    }
    call() {
      let args = Array.prototype.slice.call(arguments);
      if (typeof args[args.length - 1] === 'function') args.pop();
      if (args.length === 1 && Array.isArray(args[0])) args = args[0];
      return this._queueCommand(flatten(args));
    }
    hgetall(key) {
      return this._queueCommand(flatten(['hgetall', key]), pairsToObject);
    }
    _addScript(name, script) {
      this[name] = function () {
        const args = flatten(Array.prototype.slice.call(arguments).filter(function (a) { return typeof a !== 'function'; }));
        const head = typeof script.numberOfKeys === 'number' ? [String(script.numberOfKeys)] : [];
        // EVAL, not EVALSHA: inside a transaction a NOSCRIPT could not be retried.
        return this._queueCommand(['eval', script.lua].concat(head, args));
      };
    }
    exec(cb) {
      if (this._done) {
        const err = new Error('Pipeline cannot be used to send any commands when the `exec()` has been called on it.');
        if (typeof cb === 'function') { cb(err); return Promise.resolve(undefined); }
        return Promise.reject(err);
      }
      this._done = true;
      const transforms = this._transforms;
      const redis = this.redis;
      if (!redis._id) redis._open();
      const p = this._queue.length === 0
        ? Promise.resolve([])
        : request(REQUEST.batch, { conn: redis._id, commands: this._queue, atomic: this._atomic }).then(function (entries) {
            if (entries === null) return null;
            return entries.map(function (e, i) {
              if (e[0] === 1) return [L.toGuestError(e[1]), null];
              const t = transforms[i];
              return [null, t ? t(e[1]) : e[1]];
            });
          });
      if (typeof cb === 'function') p.then(function (v) { cb(null, v); }, function (e) { cb(e); });
      return p;
    }
  }
  for (const name of COMMANDS) {
    if (Pipeline.prototype[name]) continue;
    Pipeline.prototype[name] = function () {
      const args = Array.prototype.slice.call(arguments).filter(function (a) { return typeof a !== 'function'; });
      return this._queueCommand(flatten([name].concat(args)));
    };
  }
  Pipeline.prototype.execBuffer = Pipeline.prototype.exec;

  Redis.Redis = Redis;
  Redis.default = Redis;
  Redis.ReplyError = L.ReplyError;
  Redis.Cluster = function () { throw new Error('Redis Cluster is not part of this lab: connect to each node with new Redis(...).'); };
  L.define('ioredis', function () { return Redis; });
})(globalThis.__lab_internal);
