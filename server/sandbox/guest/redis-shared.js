// What the `ioredis` (ioredis.js) and `redis` (node-redis.js) modules share:
// turning a command's arguments into the strings Redis receives, reading a
// redis:// URL, and shaping HGETALL's flat reply. Evaluated before both, it
// hands them over on the guest modules' internal object (`L.redisShared`),
// which learner code never sees.
(function (L) {
  'use strict';

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

  function pairsToObject(arr) {
    const o = {};
    for (let i = 0; i + 1 < arr.length; i += 2) o[arr[i]] = arr[i + 1];
    return o;
  }

  L.redisShared = { flatten: flatten, parseUrl: parseUrl, pairsToObject: pairsToObject };
})(globalThis.__lab_internal);
