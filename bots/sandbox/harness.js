// Tiến Lên Arena bot sandbox harness.
//
// Evaluated once in a fresh V8 context BEFORE any bot code, as
//   (<this file>)(limits)
// It (1) removes or poisons capabilities a bot must not have, (2) installs a capturing
// `console`, and (3) defines the frozen, non-writable global `__sandbox__` whose methods the
// worker calls. Everything the harness needs at move time is captured in this closure now,
// so later prototype tampering by the bot (Object.prototype.toJSON, JSON.stringify = ...,
// Array.prototype.map = null, setters on Array.prototype[0] ...) cannot change its behaviour.
// Rules for code in here: no spread, for-of, destructuring or method calls on values the bot
// can reach (they go through tamperable prototypes); mutable harness state lives in closure
// variables or null-prototype objects only.
(function installSandboxHarness(limits) {
  'use strict';

  const g = globalThis;

  // ---- captured intrinsics -------------------------------------------------------------
  const JSONparse = JSON.parse;
  const JSONstringify = JSON.stringify;
  const isArray = Array.isArray;
  const objectKeys = Object.keys;
  const getPrototypeOf = Object.getPrototypeOf;
  const defineProperty = Object.defineProperty;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const freeze = Object.freeze;
  const apply = Reflect.apply;
  const StringCtor = String;
  const numberIsFinite = Number.isFinite;
  const stringSlice = String.prototype.slice;
  const stringIndexOf = String.prototype.indexOf;
  const ObjectPrototype = Object.prototype;
  const PromisePrototype = Promise.prototype;
  const FunctionPrototype = Function.prototype;
  const EvalErrorCtor = EvalError;
  const RangeErrorCtor = RangeError;

  const MAX_RETURN = limits.max_return_chars;
  const MAX_LINES = limits.max_console_lines;
  const MAX_CHARS = limits.max_console_chars;
  const MAX_MESSAGE = limits.max_message_chars;
  const MAX_DEPTH = 64;

  function slice(s, start, end) {
    return apply(stringSlice, s, [start, end]);
  }

  function cap(s, n) {
    return s.length > n ? slice(s, 0, n) + '…' : s;
  }

  // ---- 0. seeded Math.random -------------------------------------------------------------
  // One bot per process seeds V8 itself (--random-seed). In a warm pool child V8's flags are
  // shared by many bots, so each context gets its own generator here (sfc32, seeded by
  // splitmix32): same seed and same calls => same sequence, and no state shared with others.
  // The seed comes with the first beginLoad(seed), before any bot code runs (a pool child
  // prepares contexts ahead, before it knows whose they will be); later calls cannot reseed.
  function seedRandom(seed) {
    if (typeof seed !== 'number') return;
    let s = seed >>> 0;
    function splitmix() {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    }
    let a = splitmix(), b = splitmix(), c = splitmix(), d = splitmix();
    const random = function random() {
      const t = (((a + b) >>> 0) + d) >>> 0;
      d = (d + 1) >>> 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) >>> 0;
      c = ((c << 21) | (c >>> 11)) >>> 0;
      c = (c + t) >>> 0;
      return t / 4294967296;
    };
    defineProperty(Math, 'random', { value: random, writable: true, enumerable: false, configurable: true });
  }

  // ---- 1. remove capabilities ----------------------------------------------------------
  // Code generation from strings is also disabled by the V8 flag
  // --disallow-code-generation-from-strings (set by the worker); poisoning here gives a
  // clear message and covers the constructor back doors.
  const poisonedCodegen = function () {
    throw new EvalErrorCtor('code generation from strings (eval / Function) is disabled in the bot sandbox');
  };
  // `x instanceof Function` keeps working after the global is replaced.
  defineProperty(poisonedCodegen, 'prototype', { value: FunctionPrototype, writable: false });
  freeze(poisonedCodegen);

  const functionPrototypes = [
    FunctionPrototype,
    getPrototypeOf(async function () {}),
    getPrototypeOf(function* () {}),
    getPrototypeOf(async function* () {}),
  ];
  for (let i = 0; i < functionPrototypes.length; i++) {
    defineProperty(functionPrototypes[i], 'constructor', {
      value: poisonedCodegen, writable: false, enumerable: false, configurable: false,
    });
  }
  defineProperty(g, 'eval', { value: poisonedCodegen, writable: false, enumerable: false, configurable: false });
  defineProperty(g, 'Function', { value: poisonedCodegen, writable: false, enumerable: false, configurable: false });

  // Out-of-band execution (timers, finalizers, atomics waits) and WebAssembly.
  const REMOVED = [
    'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry',
    'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate',
    'clearImmediate', 'queueMicrotask', '__timer_manager', 'require', 'process', 'fetch',
    'XMLHttpRequest', 'WebSocket', 'importScripts', 'Worker', 'print', 'read', 'readline',
    'load', 'quit', 'os', 'd8', 'gc',
  ];
  for (let i = 0; i < REMOVED.length; i++) {
    const name = REMOVED[i];
    const desc = getOwnPropertyDescriptor(g, name);
    if (desc === undefined) continue;
    if (desc.configurable) {
      delete g[name];
    } else if (desc.writable) {
      // `var` bindings (mini-racer's own setTimeout shim) cannot be deleted.
      g[name] = undefined;
    }
    if (g[name] !== undefined) {
      throw new Error('sandbox harness could not remove global ' + name);
    }
  }
  // mini-racer's setTimeout shim also leaves a top-level class binding. It is inert without
  // SharedArrayBuffer/Atomics, but clear it anyway.
  try {
    // eslint-disable-next-line no-undef
    __TimerManager = undefined;
  } catch (e) {
    // not present in this mini-racer version
  }

  // ---- 2. console ----------------------------------------------------------------------
  let consoleText = '';   // JSON array body: "\"line1\",\"line2\""
  let lineCount = 0;
  let charCount = 0;
  let truncated = false;

  function resetConsole() {
    consoleText = '';
    lineCount = 0;
    charCount = 0;
    truncated = false;
  }

  function pushLine(line) {
    consoleText += (lineCount === 0 ? '' : ',') + JSONstringify(line);
    lineCount++;
    charCount += line.length;
  }

  function markTruncated() {
    if (!truncated) {
      truncated = true;
      consoleText += (lineCount === 0 ? '' : ',') + '"[truncated]"';
    }
  }

  function formatArg(a) {
    const t = typeof a;
    if (t === 'string') return a;
    if (t === 'number' || t === 'boolean' || t === 'bigint' || t === 'undefined' || a === null) {
      return '' + a;
    }
    if (t === 'symbol') return 'Symbol()';
    if (t === 'function') return '[Function]';
    try {
      const s = JSONstringify(a);
      if (typeof s === 'string') return s;
    } catch (e) {
      // cyclic, BigInt inside, throwing toJSON...: fall through
    }
    try {
      return '' + StringCtor(a);
    } catch (e) {
      return '[unprintable]';
    }
  }

  function record(prefix, args) {
    if (truncated) return;
    if (lineCount >= MAX_LINES) {
      markTruncated();
      return;
    }
    const room = MAX_CHARS - charCount;
    let line = prefix;
    for (let i = 0; i < args.length; i++) {
      if (i > 0) line += ' ';
      line += formatArg(args[i]);
      if (line.length > room) break;
    }
    if (line.length > room) {
      if (room > 0) pushLine(slice(line, 0, room));
      markTruncated();
      return;
    }
    pushLine(line);
  }

  const sandboxConsole = freeze({
    log: function log(...args) { record('', args); },
    info: function info(...args) { record('', args); },
    debug: function debug(...args) { record('', args); },
    dir: function dir(...args) { record('', args); },
    table: function table(...args) { record('', args); },
    trace: function trace(...args) { record('', args); },
    warn: function warn(...args) { record('[warn] ', args); },
    error: function error(...args) { record('[error] ', args); },
  });
  defineProperty(g, 'console', { value: sandboxConsole, writable: true, enumerable: false, configurable: true });

  // ---- 3. errors -----------------------------------------------------------------------
  function isOutOfMemory(e) {
    // Off-heap allocations (ArrayBuffer) fail with this RangeError when RLIMIT_DATA is hit.
    try {
      return e !== null && typeof e === 'object' && getPrototypeOf(e) === RangeErrorCtor.prototype &&
        e.message === 'Array buffer allocation failed';
    } catch (err) {
      return false;
    }
  }

  function locationOf(e) {
    // "    at getNextMove (<anonymous>:12:5)" -> " (line 12, column 5)"
    try {
      const stack = e.stack;
      if (typeof stack !== 'string') return '';
      const head = slice(stack, 0, 4000);
      const at = apply(stringIndexOf, head, ['<anonymous>:']);
      if (at < 0) return '';
      let i = at + 12;
      let line = '';
      while (i < head.length && head[i] >= '0' && head[i] <= '9') line += head[i++];
      let column = '';
      if (head[i] === ':') {
        i++;
        while (i < head.length && head[i] >= '0' && head[i] <= '9') column += head[i++];
      }
      if (line === '') return '';
      return ' (line ' + line + (column === '' ? '' : ', column ' + column) + ')';
    } catch (err) {
      return '';
    }
  }

  function describeError(e) {
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        const name = e.name;
        const message = e.message;
        if (typeof message === 'string') {
          return cap((typeof name === 'string' ? name : 'Error') + ': ' + message, MAX_MESSAGE) + locationOf(e);
        }
      }
      return cap('uncaught exception: ' + formatArg(e), MAX_MESSAGE);
    } catch (err) {
      return 'uncaught exception (the thrown value could not be described)';
    }
  }

  function describeValue(v) {
    if (v === null) return 'null';
    if (isArray(v)) return 'an array';
    const t = typeof v;
    if (t === 'string') return 'string ' + cap(JSONstringify(v), 40);
    if (t === 'number' || t === 'boolean') return t + ' ' + v;
    return t;
  }

  // ---- 4. result serialization ---------------------------------------------------------
  // Hand-written JSON writer over own enumerable data, ignoring toJSON: bounded in size and
  // depth, cycle-aware, and independent of anything the bot can replace.
  const TOO_BIG = freeze({ __proto__: null });
  const BAD = freeze({ __proto__: null });
  let badReason = '';
  let out = '';
  const ancestors = { __proto__: null };

  function emit(s) {
    if (out.length + s.length > MAX_RETURN) throw TOO_BIG;
    out += s;
  }

  function bad(reason) {
    badReason = reason;
    return BAD;
  }

  function serialize(v, depth, inArray) {
    const t = typeof v;
    if (t === 'string') {
      if (v.length > MAX_RETURN) throw TOO_BIG;
      emit(JSONstringify(v));
      return;
    }
    if (t === 'number') {
      emit(numberIsFinite(v) ? JSONstringify(v) : 'null');
      return;
    }
    if (t === 'boolean') {
      emit(v ? 'true' : 'false');
      return;
    }
    if (v === null || t === 'undefined' || t === 'function' || t === 'symbol') {
      emit('null');  // object members with these values are skipped by the caller
      return;
    }
    if (t === 'bigint') throw bad('the returned value contains a BigInt, which is not JSON');
    if (depth >= MAX_DEPTH) throw bad('the returned value is nested more than ' + MAX_DEPTH + ' levels deep');
    for (let i = 0; i < depth; i++) {
      if (ancestors[i] === v) throw bad('the returned value contains a cycle');
    }
    ancestors[depth] = v;
    if (isArray(v)) {
      const n = v.length;
      emit('[');
      for (let i = 0; i < n; i++) {
        if (i > 0) emit(',');
        serialize(v[i], depth + 1, true);
      }
      emit(']');
    } else {
      const keys = objectKeys(v);
      emit('{');
      let first = true;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const item = v[key];
        const it = typeof item;
        if (it === 'undefined' || it === 'function' || it === 'symbol') continue;
        if (!first) emit(',');
        first = false;
        emit(JSONstringify(key));
        emit(':');
        serialize(item, depth + 1, false);
      }
      emit('}');
    }
    ancestors[depth] = undefined;
  }

  function envelope(status, valueText, message) {
    return '{"s":' + JSONstringify(status) +
      ',"v":' + (valueText === null ? 'null' : valueText) +
      ',"m":' + (message === null ? 'null' : JSONstringify(cap('' + message, MAX_MESSAGE * 2))) +
      ',"c":[' + consoleText + ']' +
      ',"t":' + (truncated ? 'true' : 'false') + '}';
  }

  function finish(ret) {
    if (ret === undefined) {
      return envelope('bad_return', null,
        'getNextMove returned undefined; expected an object such as {action: "pass"}');
    }
    if (ret === null || typeof ret !== 'object' || isArray(ret)) {
      return envelope('bad_return', null,
        'getNextMove must return a plain object such as {action: "pass"}, got ' + describeValue(ret));
    }
    let proto;
    try {
      proto = getPrototypeOf(ret);
    } catch (e) {
      return envelope('bad_return', null, 'the returned value could not be read: ' + describeError(e));
    }
    if (proto === PromisePrototype) {
      return envelope('bad_return', null,
        'getNextMove returned a Promise; async bots are not supported, return the move directly');
    }
    if (proto !== ObjectPrototype && proto !== null) {
      return envelope('bad_return', null,
        'getNextMove must return a plain object literal, not a class instance, Map, Date, ...');
    }
    out = '';
    try {
      serialize(ret, 0, false);
    } catch (e) {
      out = '';
      if (e === TOO_BIG) {
        return envelope('bad_return', null, 'the returned value is larger than ' + MAX_RETURN + ' characters of JSON');
      }
      if (e === BAD) return envelope('bad_return', null, badReason);
      if (isOutOfMemory(e)) return envelope('memory', null, describeError(e));
      return envelope('bad_return', null, 'the returned value could not be serialized: ' + describeError(e));
    } finally {
      for (let i = 0; i < MAX_DEPTH; i++) ancestors[i] = undefined;
    }
    const text = out;
    out = '';
    return envelope('ok', text, null);
  }

  function entryPoint() {
    // Resolved as an identifier (not globalThis.getNextMove) so that top-level
    // `const getNextMove = (s) => ...` works too.
    // eslint-disable-next-line no-undef
    return typeof getNextMove === 'function' ? getNextMove : undefined;
  }

  // ---- 5. entry points called by the worker --------------------------------------------
  function move(stateText) {
    resetConsole();
    let state;
    try {
      state = JSONparse(stateText);
    } catch (e) {
      return envelope('internal', null, 'the game state is not valid JSON');
    }
    let fn;
    try {
      fn = entryPoint();
    } catch (e) {
      return envelope('exception', null, describeError(e));
    }
    if (fn === undefined) {
      return envelope('no_entry_point', null, 'the bot does not define a function getNextMove(gameState)');
    }
    let ret;
    try {
      ret = apply(fn, undefined, [state]);
    } catch (e) {
      return envelope(isOutOfMemory(e) ? 'memory' : 'exception', null, describeError(e));
    }
    return finish(ret);
  }

  let loading = false;
  function beginLoad(seed) {
    if (!loading) {
      loading = true;
      seedRandom(seed);
    }
    resetConsole();
    return true;
  }

  function endLoad() {
    let fn;
    try {
      fn = entryPoint();
    } catch (e) {
      return envelope('exception', null, describeError(e));
    }
    if (fn === undefined) {
      return envelope('no_entry_point', null, 'the bot does not define a function getNextMove(gameState)');
    }
    return envelope('ok', null, null);
  }

  function takeConsole() {
    // Console output of a failed load (the script threw or timed out).
    const text = envelope('console', null, null);
    resetConsole();
    return text;
  }

  defineProperty(g, '__sandbox__', {
    value: freeze({ __proto__: null, move: move, beginLoad: beginLoad, endLoad: endLoad, takeConsole: takeConsole }),
    writable: false,
    enumerable: false,
    configurable: false,
  });
  return true;
})
