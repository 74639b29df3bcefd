// Small lab modules: crypto, node-cron and `lab` itself.
(function (L) {
  'use strict';
  const call = L.call;
  const CALL = L.CALL;
  const request = L.request;
  const REQUEST = L.REQUEST;

  // ---- crypto / node:crypto ---------------------------------------------------
  function bytesFromHex(hex) {
    const bytes = [];
    for (let i = 0; i < hex.length; i += 2) bytes.push(parseInt(hex.slice(i, i + 2), 16));
    return bytes;
  }
  // Just enough of Buffer for randomBytes(n).toString('hex' | 'base64').
  class LabBuffer {
    constructor(hex) {
      Object.defineProperty(this, '_hex', { value: hex });
      this.length = hex.length / 2;
    }
    toString(encoding) {
      const enc = encoding || 'utf8';
      if (enc === 'hex') return this._hex;
      if (enc === 'base64' || enc === 'base64url') return call(CALL.hexTo, { hex: this._hex, encoding: enc });
      return String.fromCharCode.apply(null, bytesFromHex(this._hex));
    }
    readUInt32BE(offset) {
      return parseInt(this._hex.slice((offset || 0) * 2, (offset || 0) * 2 + 8), 16);
    }
  }
  const crypto = {
    randomUUID: function () { return call(CALL.uuid); },
    randomBytes: function (n, cb) {
      const size = Number(n);
      if (!(size >= 0 && size <= 65536)) throw new RangeError('The value of "size" is out of range. It must be >= 0 && <= 65536. Received ' + n);
      const buf = new LabBuffer(call(CALL.randomHex, size));
      if (typeof cb === 'function') { L.setTimeout(function () { cb(null, buf); }, 0); return undefined; }
      return buf;
    },
    randomInt: function (min, max) {
      if (max === undefined) { max = min; min = 0; }
      return call(CALL.randomInt, [Number(min), Number(max)]);
    },
    createHash: function (algorithm) {
      let data = '';
      const hash = {
        update: function (chunk) { data += String(chunk); return hash; },
        digest: function (encoding) { return call(CALL.hash, { algorithm: String(algorithm), data: data, encoding: encoding || 'hex' }); },
      };
      return hash;
    },
    getRandomValues: function (array) {
      const hex = call(CALL.randomHex, array.length * (array.BYTES_PER_ELEMENT || 1));
      const bytes = bytesFromHex(hex);
      const width = array.BYTES_PER_ELEMENT || 1;
      for (let i = 0; i < array.length; i++) {
        let v = 0;
        for (let b = 0; b < width; b++) v = v * 256 + bytes[i * width + b];
        array[i] = v;
      }
      return array;
    },
  };
  crypto.webcrypto = { randomUUID: crypto.randomUUID, getRandomValues: crypto.getRandomValues };
  crypto.default = crypto;
  L.define('crypto', function () { return crypto; });
  globalThis.crypto = crypto.webcrypto;

  // ---- node-cron: a run compresses any schedule into "now" ---------------------
  L.define('node-cron', function () {
    const cron = {
      schedule: function (expression, task, options) {
        let stopped = options && options.scheduled === false;
        const fire = function () { if (!stopped) return task(new Date()); };
        if (!stopped) L.setTimeout(fire, 0);
        return {
          start: function () { if (stopped) { stopped = false; L.setTimeout(fire, 0); } },
          stop: function () { stopped = true; },
          now: fire,
        };
      },
      validate: function (expression) { return typeof expression === 'string' && expression.trim().split(/\s+/).length >= 5; },
      getTasks: function () { return new Map(); },
    };
    cron.default = cron;
    return cron;
  });

  // ---- lab: the client's identity, the protected job and the fenced store ------
  L.define('lab', function () {
    const sleep = function (ms) { return new Promise(function (r) { L.setTimeout(r, ms); }); };
    const lab = {
      client: L.info.client,
      clientId: L.info.client,
      clients: L.info.clients,
      clientCount: L.info.clients,
      nodes: L.info.nodes,
      sleep: sleep,
      job: function (name) {
        const job = String(name === undefined ? 'job' : name);
        return {
          name: job,
          // A critical section whose executions the checker counts; no exit if the client crashes inside.
          // run(ms) works for ms; run(fn) runs fn inside the section (e.g. the protected write);
          // run(ms, fn) works for ms, then runs fn, still inside. Resolves with fn's result, else the execution number.
          run: async function (work, then) {
            const ms = typeof work === 'number' ? work : 0;
            const fn = typeof work === 'function' ? work : typeof then === 'function' ? then : null;
            const execution = call(CALL.jobEnter, job);
            try {
              if (ms > 0) await sleep(ms);
              if (fn) return await fn(execution);
            } finally {
              call(CALL.jobExit, { job: job, execution: execution });
            }
            return execution;
          },
        };
      },
      // A remote store: each call travels to it and back (worker/store-wire.ts), so each answers a promise.
      // A fenced-off write rejects with an Error whose code is 'EFENCED'.
      store: {
        write: function (key, value, token) {
          return request(REQUEST.storeWrite, { key: String(key), value: String(value), token: token === undefined || token === null ? null : Number(token) });
        },
        read: function (key) { return request(REQUEST.storeRead, String(key)); },
      },
      log: function () {
        call(CALL.console, { level: 'info', text: Array.prototype.map.call(arguments, function (a) { return L.inspect(a, 0); }).join(' ') });
      },
    };
    lab.default = lab;
    return lab;
  });
})(globalThis.__lab_internal);
