/**
 * @module token-child
 * The source of the token counting process (see token-worker.ts), plain CommonJS run
 * with `node -e`: no file to ship beside the bundles, nothing to build. Arguments: the
 * tokenizer module's resolved path and the answer file's path, which the child unlinks
 * too (the parent may be killed before it does; Windows refuses both while open). Jobs arrive over IPC; each answer is appended as one
 * JSON line to fd 4 (a file the parent reads, also synchronously), then the parent is
 * woken with the job's id. The process exits when its parent goes (IPC disconnect).
 */
export const TOKEN_CHILD_SOURCE = `
const { unlinkSync, writeSync } = require('node:fs');
try {
  unlinkSync(process.argv[2]);
} catch {}
let countTokens = null;
try {
  const loaded = require(process.argv[1]).countTokens;
  if (typeof loaded === 'function') countTokens = loaded;
} catch {}
const ordinary = { disallowedSpecial: new Set() };
process.on('disconnect', () => process.exit(0));
process.on('message', ({ id, texts }) => {
  let counts = null;
  if (countTokens) {
    try {
      counts = texts.map((pieces) => pieces.reduce((sum, piece) => sum + countTokens(piece, ordinary), 0));
    } catch {
      counts = null;
    }
  }
  try {
    writeSync(4, JSON.stringify({ id, counts }) + '\\n');
    process.send(id);
  } catch {
    process.exit(1);
  }
});
`;

/**
 * Flags of the counting process: its tokenizer's tables sit in the old generation and its
 * garbage is short-lived, so a small young generation keeps it lean; no warnings on stderr.
 */
export const TOKEN_CHILD_FLAGS = ['--max-semi-space-size=1', '--no-warnings'];
