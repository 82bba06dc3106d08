/**
 * @module wasm/_worker-source
 * The worker thread one invocation runs in (plain CommonJS run with `eval`: no file to
 * ship beside the bundle). It links colony's imports, instantiates the module the host
 * compiled (and memory-limited), writes the input into guest memory through the
 * guest's `alloc`, calls `execute` (or reads `name`/`description`/`schema`), and posts
 * the outcome. Every host function is a synchronous call to the host thread:
 * postMessage, Atomics.wait on a shared flag, then receiveMessageOnPort. A host
 * refusal is thrown through the guest and reported as its kind (even if the guest
 * catches it, and any later host call throws again).
 * The host thread holds all policy (capabilities.ts); this file only moves bytes.
 */
export const WORKER_SOURCE = `
const { workerData, parentPort, receiveMessageOnPort } = require('node:worker_threads');
const { module, op, input, port, imported } = workerData;
const flag = new Int32Array(workerData.flag);
const enc = new TextEncoder();
const dec = new TextDecoder();
let instance = null;
let memory = null;
let output = '';
let refusal = null;
const mem = () => new Uint8Array((memory || instance.exports.memory).buffer);
const read = (p, l) => dec.decode(mem().slice(p >>> 0, (p >>> 0) + (l >>> 0)));
const give = (text) => {
  const bytes = enc.encode(text);
  const p = instance.exports.alloc(bytes.length) >>> 0;
  mem().set(bytes, p);
  return (BigInt(p) << 32n) | BigInt(bytes.length);
};
const call = (name, args) => {
  if (refusal) throw new Error(refusal.kind + ': ' + refusal.message);
  Atomics.store(flag, 0, 0);
  parentPort.postMessage({ type: 'call', name, args });
  Atomics.wait(flag, 0, 0);
  const reply = receiveMessageOnPort(port).message;
  if (reply.error) {
    refusal = reply.error;
    throw new Error(reply.error.kind + ': ' + reply.error.message);
  }
  return reply.value;
};
const colony = {
  output: (p, l) => { output = read(p, l); },
  log: (level, p, l) => { call('log', [level, read(p, l)]); },
  read_workspace_file: (p, l) => give(call('read_workspace_file', [read(p, l)])),
  http_request: (p, l) => give(call('http_request', [read(p, l)])),
  invoke_tool: (a, b, c, d) => give(call('invoke_tool', [read(a, b), read(c, d)])),
  secret_exists: (p, l) => (call('secret_exists', [read(p, l)]) ? 1 : 0),
};
const memoryBytes = () => {
  try { return (memory || instance.exports.memory).buffer.byteLength; } catch { return null; }
};
const fail = (kind, error) => {
  if (refusal) return parentPort.postMessage({ type: 'failed', ...refusal });
  parentPort.postMessage({ type: 'failed', kind, message: String(error && error.message || error), memory_bytes: memoryBytes() });
};
const imports = { colony };
if (imported) {
  memory = new WebAssembly.Memory({ initial: imported.initial, maximum: imported.maximum });
  imports[imported.module] = { ...(imports[imported.module] || {}), [imported.name]: memory };
}
let stage = 'InstantiationFailed';
try {
  instance = new WebAssembly.Instance(module, imports);
  const ex = instance.exports;
  const missing = ['alloc', 'execute'].filter((k) => typeof ex[k] !== 'function');
  if (!memory && !(ex.memory instanceof WebAssembly.Memory)) missing.push('memory');
  if (op === 'execute' && missing.length) throw new Error('the module does not export ' + missing.join(', '));
  stage = 'ExecutionTrapped';
  if (op === 'describe') {
    const out = {};
    for (const k of ['name', 'description', 'schema']) {
      if (typeof ex[k] !== 'function') continue;
      output = '';
      ex[k]();
      out[k] = output;
    }
    parentPort.postMessage({ type: 'done', ok: true, output: JSON.stringify(out) });
  } else {
    const bytes = enc.encode(input);
    const p = ex.alloc(bytes.length) >>> 0;
    mem().set(bytes, p);
    const status = ex.execute(p, bytes.length);
    // A guest that caught a refusal (wasm exception handling) still fails with it.
    if (refusal) throw new Error(refusal.message);
    parentPort.postMessage({ type: 'done', ok: status === 0, output });
  }
} catch (error) {
  fail(stage, error);
}
`;
