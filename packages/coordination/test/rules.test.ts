/**
 * The small named rules and side effects, each alone: token counting (and how it
 * degrades), IDE inference, post routing, compression, snippets and the manual clock.
 */
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it, vi } from 'vitest';
import { inferIdeFromSessionId } from '../src/ide';
import { createTokenCounter, manualClock } from '../src/index';
import { compressContent } from '../src/memory/compress';
import { makeSnippet } from '../src/memory/snippet';
import { parseWorkingFields } from '../src/tasks/pointer-fields';
import { compactLine, directedAgent, looksLikeFutureWork } from '../src/tasks/post-routing';
import { estimateTokens, hasLongRun, MAX_TOKENIZER_RUN } from '../src/tokens';

describe('token counter', () => {
  it('counts with the real tokenizer by default', () => {
    const tokens = createTokenCounter();
    expect(tokens.count('hello world')).toBe(2);
    expect(tokens.count('')).toBe(0);
    expect(tokens.exact()).toBe(true);
    expect(tokens.warning).toBeUndefined();
  });

  it('degrades to estimates with one warning, and never throws, when the module cannot load', () => {
    const onWarning = vi.fn();
    const tokens = createTokenCounter({ module: 'no-such-tokenizer-module-xyz', onWarning });
    expect(() => tokens.count('hello world')).not.toThrow();
    expect(tokens.count('hello world')).toBe(estimateTokens('hello world'));
    expect(tokens.count('x'.repeat(400))).toBe(100);
    expect(tokens.exact()).toBe(false);
    expect(tokens.warning).toMatch(/tokenizer unavailable.*estimates/);
    expect(onWarning).toHaveBeenCalledTimes(1);
    expect(onWarning).toHaveBeenCalledWith(tokens.warning);
  });

  it('degrades when the module loads but has no countTokens', () => {
    const tokens = createTokenCounter({ module: 'node:path' });
    expect(tokens.count('abcdefgh')).toBe(2);
    expect(tokens.warning).toMatch(/no countTokens export/);
  });

  it('counts a 64 KiB unbroken run quickly (BPE is quadratic in one piece), and close to exact', () => {
    const tokens = createTokenCounter();
    tokens.count('warm up');
    const started = performance.now();
    expect(tokens.count('x'.repeat(65_536))).toBeGreaterThan(1000);
    expect(performance.now() - started).toBeLessThan(1500); // ~10 s before slicing
    const run = 'ab1'.repeat(700);
    expect(Math.abs(tokens.count(run) - countTokens(run))).toBeLessThanOrEqual(countTokens(run) * 0.05);
  });

  it('is exact for ordinary text', () => {
    const tokens = createTokenCounter();
    const text = 'The auth middleware rejects expired tokens; see packages/core/src/open-colony.ts:42.\n'.repeat(50);
    expect(tokens.count(text)).toBe(countTokens(text));
  });

  it('counts piece by piece exactly as the tokenizer counts the whole text', () => {
    const tokens = createTokenCounter();
    const ordinary = { disallowedSpecial: new Set<string>() };
    const pieces = fc.oneof(
      fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', ' \n ', '\n\n', '   \n', '\u00a0', '\u3000', '\u2028'),
      fc.constantFrom("'s", "'LL", "don't", 'x.', '...', '(a)', '->', '#42', '<|endoftext|>', 'ümlaut', '東京', '🙂'),
      fc.constantFrom('1', '12', '123', '1234567', '3.14', '0x1f'),
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(tokens.count(text)).toBe(text.length === 0 ? 0 : countTokens(text, ordinary));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts special-token strings as the ordinary text they are, without throwing', () => {
    const tokens = createTokenCounter();
    const text = 'the model printed <|endoftext|> then <|fim_prefix|> and stopped';
    expect(() => countTokens(text)).toThrow(/special token/);
    expect(tokens.count(text)).toBe(countTokens(text, { disallowedSpecial: new Set() }));
    expect(tokens.count('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('finds long unbroken runs exactly as the regex it replaces', () => {
    const regex = new RegExp(`\\S{${MAX_TOKENIZER_RUN}}`);
    const spaces = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2003', '\u2028', '\u3000', '\ufeff'];
    const piece = fc.oneof(
      fc.constantFrom(...spaces),
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.integer({ min: MAX_TOKENIZER_RUN - 2, max: MAX_TOKENIZER_RUN + 2 }).map((n) => 'x'.repeat(n)),
      fc.constantFrom('\u200b', '\u180e', '\ud83d\ude00', '\u0085'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        expect(hasLongRun(text)).toBe(regex.test(text));
      }),
      { numRuns: 500 },
    );
    expect(hasLongRun('y'.repeat(MAX_TOKENIZER_RUN))).toBe(true);
    expect(hasLongRun(`${'y'.repeat(MAX_TOKENIZER_RUN - 1)} y`)).toBe(false);
  });

  it('does not load anything before the first count', () => {
    const onWarning = vi.fn();
    const tokens = createTokenCounter({ module: 'no-such-tokenizer-module-xyz', onWarning });
    expect(tokens.warning).toBeUndefined();
    expect(onWarning).not.toHaveBeenCalled();
  });
});

describe('inferIdeFromSessionId', () => {
  it.each([
    ['claude-now-789', 'claude-code'],
    ['cc_123', 'claude-code'],
    ['codex-abc-123', 'codex'],
    ['CODEX:1', 'codex'],
    ['cursor', 'cursor'],
    ['gemini-x', 'gemini'],
    ['worker-7', 'colony-worker'],
    ['codexish-1', 'unknown'],
    ['sess_abc', 'unknown'],
  ])('%s -> %s', (id, ide) => {
    expect(inferIdeFromSessionId(id)).toBe(ide);
  });
});

describe('post routing rules', () => {
  it('finds the agent a post addresses only when it asks for action', () => {
    expect(directedAgent('codex, can you re-run the typecheck?')).toBe('codex');
    expect(directedAgent('@Claude please review the migration')).toBe('claude');
    expect(directedAgent('codex finished the migration.')).toBeNull();
    expect(directedAgent('can you re-run the typecheck?')).toBeNull();
    expect(directedAgent('see packages/codex/readme, can you?')).toBeNull();
  });

  it('reads future work only in notes and decisions', () => {
    expect(looksLikeFutureWork('note', 'follow-up: later we should extract a helper')).toBe(true);
    expect(looksLikeFutureWork('decision', 'TODO: add retries')).toBe(true);
    expect(looksLikeFutureWork('blocker', 'TODO: add retries')).toBe(false);
    expect(looksLikeFutureWork('note', 'Tests pass on the storage package.')).toBe(false);
  });

  it('compacts a post to one capped line', () => {
    expect(compactLine('  a\n\n b\tc  ')).toBe('a b c');
    const long = compactLine('word '.repeat(100), 50);
    expect(long).toHaveLength(50);
    expect(long.endsWith('…')).toBe(true);
  });

  it('parses working fields in either separator style', () => {
    expect(
      parseWorkingFields('branch=a/b | task=finish; blocker=none\nnext=run tests; evidence=x.ts; other=1'),
    ).toEqual({ branch: 'a/b', task: 'finish', blocker: 'none', next: 'run tests', evidence: 'x.ts' });
  });
});

describe('compressContent', () => {
  it('drops filler and abbreviates prose, keeping code, paths, URLs and numbers exactly', () => {
    const text =
      'The implementation of the database configuration is basically done; see src/db/_config.ts, `const the = 1`, https://example.com/the/very/path and 42 things.';
    const out = compressContent(text);
    expect(out).toContain('impl');
    expect(out).toContain('db config');
    expect(out).not.toMatch(/\bbasically\b/);
    for (const kept of ['src/db/_config.ts', '`const the = 1`', 'https://example.com/the/very/path', '42']) {
      expect(out).toContain(kept);
    }
    expect(out.length).toBeLessThan(text.length);
  });

  it('keeps fenced code blocks verbatim', () => {
    const code = '```\nthe   very  function\n```';
    expect(compressContent(`The very ${code}`)).toBe(code);
  });
});

describe('compressContent (property)', () => {
  const word = fc.constantFrom(
    'the',
    'a',
    'very',
    'function',
    'database',
    'and',
    'with',
    'Because',
    'plain',
    'x,',
    'ok.',
  );
  const verbatim = fc.oneof(
    fc.stringMatching(/^`[a-z (){}=;  ]{1,12}`$/),
    fc.stringMatching(/^```\n( {0,4}[a-z=;()]{1,8}\n){1,3}```$/),
    fc.stringMatching(/^https:\/\/[a-z]{1,8}\/[a-z/]{0,8}$/),
    fc.stringMatching(/^[a-z]{1,6}\/[a-z_]{1,6}\.ts$/),
  );
  const text = fc.array(fc.oneof(word, verbatim), { minLength: 1, maxLength: 20 });

  it('is never longer than the original and keeps every code span, URL and path verbatim', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(' ', '  ', '\n', ' \t '), (parts, gap) => {
        const input = parts.join(gap);
        const out = compressContent(input);
        expect(out.length).toBeLessThanOrEqual(input.length);
        for (const part of parts) if (/[`/]/.test(part)) expect(out).toContain(part);
      }),
      { numRuns: 200 },
    );
  });
});

describe('makeSnippet', () => {
  it('returns short bodies whole, flattened', () => {
    expect(makeSnippet('a\n b  c', 'b')).toBe('a b c');
  });

  it('centres a window on the first term found, with ellipses', () => {
    const body = `${'x '.repeat(200)}target word ${'y '.repeat(200)}`;
    const snippet = makeSnippet(body, 'target');
    expect(snippet).toContain('target');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });
});

describe('manualClock', () => {
  it('moves only when told', () => {
    const clock = manualClock(1000);
    expect(clock.now()).toBe(1000);
    clock.advance(500);
    expect(clock.now()).toBe(1500);
    clock.set(42);
    expect(clock.now()).toBe(42);
    expect(manualClock().now()).toBe(Date.UTC(2026, 0, 1));
  });
});
