// The `redis` module (node-redis v4) inside the sandbox. Like ioredis.js it is
// thin: the connection and every command live in the host (the worker), which
// talks to the lab's node through this client's own link.
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
