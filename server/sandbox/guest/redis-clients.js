// The `ioredis` and `redis` (node-redis v4) modules inside the sandbox. Both
// are thin: the connection and every command live in the host (the worker),
// which talks to the lab's node through this client's own link.
(function (L) {
  'use strict';
  const call = L.call;
  const request = L.request;
  const CALL = L.CALL;
  const REQUEST = L.REQUEST;
  const EventEmitter = L.EventEmitter;

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

  // ---- shared argument handling ------------------------------------------------
  function flatten(args) {
    const out = [];
    for (const a of args) {
      if (Array.isArray(a)) {
        for (const x of a) out.push(x);
      } else if (a !== null && typeof a === 'object' && !(a instanceof Date)) {
        for (const k of Object.keys(a)) { out.push(k); out.push(a[k]); }
      } else {
        out.push(a);
      }
    }
    return out.map(function (x) { return x === null || x === undefined ? '' : String(x); });
  }

  function parseUrl(url) {
    const m = /^rediss?:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?(\[[^\]]+\]|[^:/?]+)?(?::(\d+))?(?:\/(\d+))?/.exec(String(url));
    if (!m) return { host: String(url) };
    const out = {};
    if (m[3]) out.host = m[3].replace(/^\[|\]$/g, '');
    if (m[4]) out.port = Number(m[4]);
    if (m[5]) out.db = Number(m[5]);
    if (m[1]) out.username = decodeURIComponent(m[1]);
    if (m[2]) out.password = decodeURIComponent(m[2]);
    return out;
  }

  function pickOptions(o) {
    const out = {};
    for (const k of ['connectTimeout', 'commandTimeout', 'maxRetriesPerRequest', 'enableOfflineQueue', 'lazyConnect', 'db']) {
      if (o[k] !== undefined) out[k] = o[k];
    }
    return out;
  }

  // ---- ioredis -----------------------------------------------------------------
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

  function pairsToObject(arr) {
    const o = {};
    for (let i = 0; i + 1 < arr.length; i += 2) o[arr[i]] = arr[i + 1];
    return o;
  }
  Redis.Redis = Redis;
  Redis.default = Redis;
  Redis.ReplyError = L.ReplyError;
  Redis.Cluster = function () { throw new Error('Redis Cluster is not part of this lab: connect to each node with new Redis(...).'); };
  L.define('ioredis', function () { return Redis; });

  // ---- node-redis v4 -----------------------------------------------------------
  class ErrorReply extends Error {
    constructor(message) { super(message); this.name = 'ErrorReply'; }
  }
  class ClientClosedError extends Error {
    constructor() { super('The client is closed'); this.name = 'ClientClosedError'; }
  }
  function toNodeRedisError(e) {
    if (e && e.name === 'ReplyError') return new ErrorReply(e.message);
    return e;
  }

  function setArgs(key, value, opts) {
    const args = ['SET', key, value];
    const o = opts || {};
    if (o.EX !== undefined) args.push('EX', o.EX);
    if (o.PX !== undefined) args.push('PX', o.PX);
    if (o.EXAT !== undefined) args.push('EXAT', o.EXAT);
    if (o.PXAT !== undefined) args.push('PXAT', o.PXAT);
    if (o.KEEPTTL) args.push('KEEPTTL');
    if (o.NX) args.push('NX');
    if (o.XX) args.push('XX');
    if (o.GET) args.push('GET');
    return args;
  }

  class RedisClient extends EventEmitter {
    constructor(options) {
      super();
      const o = options || {};
      const fromUrl = o.url ? parseUrl(o.url) : {};
      const socket = o.socket || {};
      this.options = o;
      this._host = String(socket.host || fromUrl.host || 'localhost');
      this._port = Number(socket.port || fromUrl.port || 6379);
      this._conn = {};
      if (socket.connectTimeout !== undefined) this._conn.connectTimeout = socket.connectTimeout;
      if (o.commandTimeout !== undefined) this._conn.commandTimeout = o.commandTimeout;
      if (o.database !== undefined || fromUrl.db !== undefined) this._conn.db = o.database !== undefined ? o.database : fromUrl.db;
      this._id = 0;
      this.isOpen = false;
      this.isReady = false;
    }
    connect() {
      if (this.isOpen) return Promise.reject(new Error('Socket already opened'));
      const self = this;
      this.isOpen = true;
      return new Promise(function (resolve, reject) {
        let settled = false;
        self._id = call(CALL.connect, { flavor: 'redis', host: self._host, port: self._port, options: self._conn });
        L.connListeners.set(self._id, function (ev) {
          if (ev.event === 'error') {
            const err = L.toGuestError(ev.error);
            if (self.listenerCount('error') > 0) self.emit('error', err);
            if (!settled) { settled = true; reject(err); }
            return;
          }
          if (ev.event === 'connect') self.emit('connect');
          if (ev.event === 'ready') {
            self.isReady = true;
            self.emit('ready');
            if (!settled) { settled = true; resolve(self); }
          }
          if (ev.event === 'reconnecting') { self.isReady = false; self.emit('reconnecting'); }
          if (ev.event === 'end') { self.isReady = false; self.emit('end'); }
        });
      });
    }
    sendCommand(args) {
      if (!this.isOpen) return Promise.reject(new ClientClosedError());
      return request(REQUEST.command, { conn: this._id, args: flatten(args) }).catch(function (e) { throw toNodeRedisError(e); });
    }
    set(key, value, opts) {
      return this.sendCommand(setArgs(key, value, opts));
    }
    eval(script, opts) {
      const o = opts || {};
      const keys = o.keys || [];
      return this.sendCommand(['EVAL', script, keys.length].concat(keys, o.arguments || []));
    }
    evalSha(sha, opts) {
      const o = opts || {};
      const keys = o.keys || [];
      return this.sendCommand(['EVALSHA', sha, keys.length].concat(keys, o.arguments || []));
    }
    scriptLoad(script) {
      return this.sendCommand(['SCRIPT', 'LOAD', script]);
    }
    hGetAll(key) {
      return this.sendCommand(['HGETALL', key]).then(function (arr) {
        const o = {};
        for (let i = 0; i + 1 < arr.length; i += 2) o[arr[i]] = arr[i + 1];
        return o;
      });
    }
    quit() {
      if (!this.isOpen) return Promise.reject(new ClientClosedError());
      this.isOpen = false;
      this.isReady = false;
      return request(REQUEST.quit, this._id);
    }
    disconnect() {
      if (!this.isOpen) return Promise.reject(new ClientClosedError());
      this.isOpen = false;
      this.isReady = false;
      call(CALL.disconnect, this._id);
      return Promise.resolve();
    }
    duplicate(override) {
      return new RedisClient(Object.assign({}, this.options, override || {}));
    }
    multi() {
      return new NodeRedisMulti(this);
    }
    MULTI() {
      return this.multi();
    }
  }

  class WatchError extends Error {
    constructor() { super('One (or more) of the watched keys has been changed'); this.name = 'WatchError'; }
  }

  // node-redis v4's client.multi(): exec() runs the queue in MULTI/EXEC and resolves with the replies
  // (a command's own error is an ErrorReply in its place); execAsPipeline() sends it without MULTI.
  class NodeRedisMulti {
    constructor(client) {
      this._client = client;
      this._queue = [];
      this._transforms = [];
    }
    addCommand(args, transform) {
      this._queue.push(flatten(args));
      this._transforms.push(transform || null);
      return this;
    }
    hGetAll(key) {
      return this.addCommand(['HGETALL', key], pairsToObject);
    }
    _run(atomic) {
      const client = this._client;
      if (!client.isOpen) return Promise.reject(new ClientClosedError());
      if (this._queue.length === 0) return Promise.resolve([]);
      const commands = this._queue;
      const transforms = this._transforms;
      this._queue = [];
      this._transforms = [];
      return request(REQUEST.batch, { conn: client._id, commands: commands, atomic: atomic }).then(function (entries) {
        if (entries === null) throw new WatchError();
        return entries.map(function (e, i) {
          if (e[0] === 1) return toNodeRedisError(L.toGuestError(e[1]));
          return transforms[i] ? transforms[i](e[1]) : e[1];
        });
      }, function (e) { throw toNodeRedisError(e); });
    }
    exec(execAsPipeline) {
      return this._run(execAsPipeline !== true);
    }
    execAsPipeline() {
      return this._run(false);
    }
    set(key, value, opts) {
      return this.addCommand(setArgs(key, value, opts));
    }
    eval(script, opts) {
      const o = opts || {};
      const keys = o.keys || [];
      return this.addCommand(['EVAL', script, keys.length].concat(keys, o.arguments || []));
    }
  }
  NodeRedisMulti.prototype.EXEC = NodeRedisMulti.prototype.exec;
  NodeRedisMulti.prototype.SET = NodeRedisMulti.prototype.set;
  NodeRedisMulti.prototype.EVAL = NodeRedisMulti.prototype.eval;
  NodeRedisMulti.prototype.HGETALL = NodeRedisMulti.prototype.hGetAll;
  RedisClient.prototype.QUIT = RedisClient.prototype.quit;
  RedisClient.prototype.SET = RedisClient.prototype.set;
  RedisClient.prototype.EVAL = RedisClient.prototype.eval;
  RedisClient.prototype.EVALSHA = RedisClient.prototype.evalSha;
  RedisClient.prototype.SCRIPT_LOAD = RedisClient.prototype.scriptLoad;
  RedisClient.prototype.HGETALL = RedisClient.prototype.hGetAll;
  const NODE_REDIS = {
    get: 'GET', del: 'DEL', exists: 'EXISTS', incr: 'INCR', incrBy: 'INCRBY', decr: 'DECR', decrBy: 'DECRBY',
    expire: 'EXPIRE', pExpire: 'PEXPIRE', ttl: 'TTL', pTTL: 'PTTL', persist: 'PERSIST', ping: 'PING', echo: 'ECHO',
    time: 'TIME', type: 'TYPE', keys: 'KEYS', mGet: 'MGET', mSet: 'MSET', setNX: 'SETNX', getSet: 'GETSET', getDel: 'GETDEL',
    append: 'APPEND', strLen: 'STRLEN', unlink: 'UNLINK', dbSize: 'DBSIZE', info: 'INFO', publish: 'PUBLISH',
    hGet: 'HGET', hSet: 'HSET', hDel: 'HDEL', hIncrBy: 'HINCRBY', hExists: 'HEXISTS',
    lPush: 'LPUSH', rPush: 'RPUSH', lPop: 'LPOP', rPop: 'RPOP', lRange: 'LRANGE', lLen: 'LLEN',
    sAdd: 'SADD', sRem: 'SREM', sMembers: 'SMEMBERS', sIsMember: 'SISMEMBER',
    zAdd: 'ZADD', zRange: 'ZRANGE', zScore: 'ZSCORE', zRem: 'ZREM', flushDb: 'FLUSHDB', flushAll: 'FLUSHALL',
    watch: 'WATCH', unwatch: 'UNWATCH',
  };
  for (const method of Object.keys(NODE_REDIS)) {
    const command = NODE_REDIS[method];
    const fn = function () { return this.sendCommand([command].concat(Array.prototype.slice.call(arguments))); };
    RedisClient.prototype[method] = fn;
    RedisClient.prototype[command] = fn;
    const queue = function () { return this.addCommand([command].concat(Array.prototype.slice.call(arguments))); };
    NodeRedisMulti.prototype[method] = queue;
    NodeRedisMulti.prototype[command] = queue;
  }
  L.define('redis', function () {
    return {
      createClient: function (options) { return new RedisClient(options); },
      ErrorReply: ErrorReply,
      ClientClosedError: ClientClosedError,
      WatchError: WatchError,
      default: undefined,
    };
  });
})(globalThis.__lab_internal);
