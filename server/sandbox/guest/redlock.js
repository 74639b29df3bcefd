// The `redlock` module (the v5 API), written for the lab. It runs inside the
// client like any learner code, so every SET/EVAL it sends is an ordinary
// recorded command, and it adds lock events (attempt, votes, validity,
// acquired / failed, extended, released) so the checker can name the bug.
(function (L) {
  'use strict';
  const call = L.call;
  const CALL = L.CALL;
  const EventEmitter = L.EventEmitter;

  const ACQUIRE_SCRIPT = [
    'for i, key in ipairs(KEYS) do',
    '  if redis.call("exists", key) == 1 then return 0 end',
    'end',
    'for i, key in ipairs(KEYS) do',
    '  redis.call("set", key, ARGV[1], "PX", ARGV[2])',
    'end',
    'return #KEYS',
  ].join('\n');
  const EXTEND_SCRIPT = [
    'for i, key in ipairs(KEYS) do',
    '  if redis.call("get", key) ~= ARGV[1] then return 0 end',
    'end',
    'for i, key in ipairs(KEYS) do',
    '  redis.call("set", key, ARGV[1], "PX", ARGV[2])',
    'end',
    'return #KEYS',
  ].join('\n');
  const RELEASE_SCRIPT = [
    'local count = 0',
    'for i, key in ipairs(KEYS) do',
    '  if redis.call("get", key) == ARGV[1] then',
    '    redis.call("del", key)',
    '    count = count + 1',
    '  end',
    'end',
    'return count',
  ].join('\n');

  class ResourceLockedError extends Error {
    constructor(message) {
      super(message);
      this.name = 'ResourceLockedError';
    }
  }
  class ExecutionError extends Error {
    constructor(message, attempts) {
      super(message);
      this.name = 'ExecutionError';
      this.attempts = attempts;
    }
  }

  const sha = {};
  function shaOf(script) {
    if (!sha[script]) sha[script] = call(CALL.hash, { algorithm: 'sha1', data: script, encoding: 'hex' });
    return sha[script];
  }

  // EVALSHA first, EVAL when the node does not know the script yet (as ioredis and redlock do).
  function evalOn(client, script, keys, args) {
    const tail = [String(keys.length)].concat(keys, args.map(String));
    if (client && typeof client.call === 'function' && typeof client._send === 'function') {
      return client.call.apply(client, ['evalsha', shaOf(script)].concat(tail)).catch(function (e) {
        if (String(e && e.message).indexOf('NOSCRIPT') === 0) return client.call.apply(client, ['eval', script].concat(tail));
        throw e;
      });
    }
    if (client && typeof client.sendCommand === 'function') {
      return client.sendCommand(['EVALSHA', shaOf(script)].concat(tail)).catch(function (e) {
        if (String(e && e.message).indexOf('NOSCRIPT') === 0) return client.sendCommand(['EVAL', script].concat(tail));
        throw e;
      });
    }
    return Promise.reject(new TypeError('Redlock needs ioredis or node-redis clients.'));
  }

  function nodeOf(client) {
    const id = client && (client._id || 0);
    const node = id ? call(CALL.connNode, id) : null;
    return typeof node === 'number' ? node : 0;
  }

  function lockEvent(fields) {
    call(CALL.lockEvent, fields);
  }

  class Lock {
    constructor(redlock, resources, value, attempts, expiration) {
      this.redlock = redlock;
      this.resources = resources;
      this.value = value;
      this.attempts = attempts;
      this.expiration = expiration;
    }
    release() {
      return this.redlock.release(this);
    }
    extend(duration) {
      return this.redlock.extend(this, duration);
    }
  }

  class Redlock extends EventEmitter {
    constructor(clients, settings) {
      super();
      this.clients = new Set(clients);
      if (this.clients.size === 0) throw new Error('Redlock must be instantiated with at least one redis client.');
      const s = settings || {};
      this.settings = {
        driftFactor: typeof s.driftFactor === 'number' ? s.driftFactor : 0.01,
        retryCount: typeof s.retryCount === 'number' ? s.retryCount : 10,
        retryDelay: typeof s.retryDelay === 'number' ? s.retryDelay : 200,
        retryJitter: typeof s.retryJitter === 'number' ? s.retryJitter : 100,
        automaticExtensionThreshold: typeof s.automaticExtensionThreshold === 'number' ? s.automaticExtensionThreshold : 500,
      };
    }

    _settings(override) {
      return Object.assign({}, this.settings, override || {});
    }

    // One round on every node; decides as soon as a quorum for or against is certain.
    _attempt(script, keys, args) {
      const self = this;
      const clients = Array.from(this.clients);
      const quorum = Math.floor(clients.length / 2) + 1;
      const votes = [];
      const votesFor = new Set();
      const votesAgainst = new Map();
      let settle;
      const decided = new Promise(function (r) { settle = r; });
      let done = false;
      let count = 0;
      let resolveStats;
      const stats = new Promise(function (r) { resolveStats = r; });
      function tally(client, ok, error) {
        count++;
        votes.push(error ? { node: nodeOf(client), ok: ok, error: String(error.message || error) } : { node: nodeOf(client), ok: ok });
        if (ok) votesFor.add(client);
        else votesAgainst.set(client, error);
        if (!ok && error && !(error instanceof ResourceLockedError) && self.listenerCount('error') > 0) self.emit('error', error);
        if (!done && (votesFor.size >= quorum || votesAgainst.size > clients.length - quorum)) {
          done = true;
          settle({ vote: votesFor.size >= quorum ? 'for' : 'against', votes: votes.slice(), quorum: quorum });
        }
        if (count === clients.length) resolveStats({ membershipSize: clients.length, quorumSize: quorum, votesFor: votesFor, votesAgainst: votesAgainst });
      }
      for (const client of clients) {
        evalOn(client, script, keys, args).then(
          function (result) {
            if (Number(result) === keys.length) tally(client, true);
            else tally(client, false, new ResourceLockedError('The operation was applied to: ' + result + ' of the ' + keys.length + ' requested resources.'));
          },
          function (error) { tally(client, false, error); },
        );
      }
      return decided.then(function (d) { d.stats = stats; return d; });
    }

    async _releaseEverywhere(keys, value) {
      try {
        await this._attempt(RELEASE_SCRIPT, keys, [value]);
      } catch (_) {
        /* best effort: the keys expire anyway */
      }
    }

    async acquire(resources, duration, settings) {
      if (Math.floor(duration) !== duration) throw new Error('Duration must be an integer value in milliseconds.');
      const s = this._settings(settings);
      const keys = resources.map(String);
      const value = call(CALL.randomHex, 16);
      const attempts = [];
      const maxAttempts = s.retryCount === -1 ? Infinity : s.retryCount + 1;
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        lockEvent({ event: 'attempt', resources: keys, token: value, attempt: attempt, ttlMs: duration });
        const start = Date.now();
        const result = await this._attempt(ACQUIRE_SCRIPT, keys, [value, duration]);
        attempts.push(result.stats);
        const elapsed = Date.now() - start;
        const drift = Math.round(s.driftFactor * duration) + 2;
        const validity = duration - elapsed - drift;
        if (result.vote === 'for' && validity > 0) {
          lockEvent({ event: 'acquired', resources: keys, token: value, attempt: attempt, votes: result.votes, quorum: result.quorum, ttlMs: duration, validityMs: validity });
          return new Lock(this, keys, value, attempts, start + duration - drift);
        }
        lockEvent({
          event: 'failed', resources: keys, token: value, attempt: attempt, votes: result.votes, quorum: result.quorum, ttlMs: duration, validityMs: validity,
          detail: result.vote === 'for' ? 'quorum reached but no validity left (' + validity + ' ms)' : 'no quorum',
        });
        // Undo a partial acquisition on the nodes that said yes before trying again.
        await this._releaseEverywhere(keys, value);
        if (attempt < maxAttempts) {
          const wait = Math.max(0, s.retryDelay + Math.floor((Math.random() * 2 - 1) * s.retryJitter));
          await new Promise(function (r) { L.setTimeout(r, wait); });
        }
      }
      throw new ExecutionError('The operation was unable to achieve a quorum during its retry window.', attempts);
    }

    async release(lock, settings) {
      const result = await this._attempt(RELEASE_SCRIPT, lock.resources, [lock.value]);
      lockEvent({ event: result.vote === 'for' ? 'released' : 'release-failed', resources: lock.resources, token: lock.value, votes: result.votes, quorum: result.quorum });
      lock.expiration = 0;
      if (result.vote !== 'for') throw new ExecutionError('The operation was unable to achieve a quorum during its retry window.', [result.stats]);
      return { attempts: [result.stats] };
    }

    async extend(existing, duration, settings) {
      if (Math.floor(duration) !== duration) throw new Error('Duration must be an integer value in milliseconds.');
      const s = this._settings(settings);
      if (existing.expiration < Date.now()) {
        lockEvent({ event: 'extend-failed', resources: existing.resources, token: existing.value, ttlMs: duration, detail: 'the lock had already expired' });
        throw new ExecutionError('Cannot extend an already-expired lock.', []);
      }
      const start = Date.now();
      const result = await this._attempt(EXTEND_SCRIPT, existing.resources, [existing.value, duration]);
      const drift = Math.round(s.driftFactor * duration) + 2;
      const validity = duration - (Date.now() - start) - drift;
      if (result.vote === 'for' && validity > 0) {
        lockEvent({ event: 'extended', resources: existing.resources, token: existing.value, votes: result.votes, quorum: result.quorum, ttlMs: duration, validityMs: validity });
        existing.expiration = 0;
        return new Lock(this, existing.resources, existing.value, [result.stats], start + duration - drift);
      }
      lockEvent({ event: 'extend-failed', resources: existing.resources, token: existing.value, votes: result.votes, quorum: result.quorum, ttlMs: duration, validityMs: validity });
      throw new ExecutionError('The operation was unable to achieve a quorum during its retry window.', [result.stats]);
    }

    async using(resources, duration, settingsOrRoutine, optionalRoutine) {
      const settings = typeof settingsOrRoutine === 'function' ? {} : settingsOrRoutine;
      const routine = typeof settingsOrRoutine === 'function' ? settingsOrRoutine : optionalRoutine;
      const s = this._settings(settings);
      if (s.automaticExtensionThreshold > duration - 100) {
        throw new Error('A lock `duration` must be at least 100ms greater than the `automaticExtensionThreshold` setting.');
      }
      const self = this;
      let lock = await this.acquire(resources, duration, settings);
      const signal = { aborted: false, error: undefined };
      let timer;
      let extension;
      function queue() {
        timer = L.setTimeout(function () { extension = extend(); }, lock.expiration - Date.now() - s.automaticExtensionThreshold);
      }
      async function extend() {
        timer = undefined;
        try {
          lock = await lock.extend(duration);
          queue();
        } catch (error) {
          if (lock.expiration > Date.now()) return (extension = extend());
          signal.aborted = true;
          signal.error = error;
        }
      }
      queue();
      try {
        return await routine(signal);
      } finally {
        if (timer !== undefined) L.clearTimeout(timer);
        if (extension) await extension.catch(function () {});
        await self.release(lock).catch(function () {});
      }
    }

    async quit() {
      await Promise.all(Array.from(this.clients).map(function (c) { return c.quit(); }));
    }
  }

  Redlock.default = Redlock;
  Redlock.Redlock = Redlock;
  Redlock.Lock = Lock;
  Redlock.ResourceLockedError = ResourceLockedError;
  Redlock.ExecutionError = ExecutionError;
  Redlock.__esModule = true;
  L.define('redlock', function () { return Redlock; });
})(globalThis.__lab_internal);
