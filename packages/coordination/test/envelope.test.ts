/**
 * parseToolCalls over a corpus of model replies (test/fixtures/replies): bare JSON,
 * prose with fences, several blocks, OpenAI-style calls, and broken JSON, which is
 * reported, never thrown.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CALLS_PER_REPLY, MAX_REPLY_CHARS } from '../src/framework/envelope';
import { parseToolCalls } from '../src/index';

const DIR = join(import.meta.dirname, 'fixtures', 'replies');
const EXPECTED = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Record<
  string,
  { envelopes: number; calls: string[]; errors: Array<[string, number]> }
>;
const reply = (name: string) => readFileSync(join(DIR, name), 'utf8');

describe('parseToolCalls over the reply corpus', () => {
  it('has an expectation for every reply in the corpus', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.txt'));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s', (name, expected) => {
    const parsed = parseToolCalls(reply(name));
    expect(parsed.calls.map((c) => c.name)).toEqual(expected.calls);
    expect(parsed.errors.map((e) => [e.error, e.line])).toEqual(expected.errors);
    expect(parsed.envelopes).toBe(expected.envelopes);
    for (const error of parsed.errors) {
      expect(error.message.length).toBeGreaterThan(0);
      expect(error.excerpt.length).toBeGreaterThan(0);
    }
  });

  it('keeps the seed example arguments as written', () => {
    expect(parseToolCalls(reply('01-seed-example.txt')).calls).toEqual([
      { name: 'fs_list', args: { dir: '.', pattern: 'py$', max_results: 200 } },
      { name: 'fs_read', args: { path: 'scripts/ai_swarm.py', max_bytes: 50000 } },
      { name: 'search_text', args: { pattern: 'def main', dir: 'scripts', max_matches: 50 } },
      { name: 'fs_write', args: { path: 'docs/notes.md', content: 'Hello', create_dirs: true } },
    ]);
  });

  it('reads OpenAI-style calls with JSON-text arguments', () => {
    expect(parseToolCalls(reply('09-openai-style.txt')).calls).toEqual([
      { name: 'fs_read', args: { path: 'README.md', max_bytes: 1000 } },
    ]);
  });

  it('is not fooled by braces and quotes inside strings', () => {
    const [call] = parseToolCalls(reply('13-braces-in-strings.txt')).calls;
    expect(call!.args.content).toBe(`export function f() {\n  return "}{" + '{';\n}\n`);
  });

  it('says what is wrong with a broken block', () => {
    const [error] = parseToolCalls(reply('06-trailing-comma.txt')).errors;
    expect(error!.message).toMatch(/^invalid JSON: /);
    expect(error!.excerpt).toMatch(/^\{ "tool_calls": \[/);
    const [cut] = parseToolCalls(reply('07-truncated.txt')).errors;
    expect(cut!.message).toMatch(/unterminated/);
  });

  it('names the bad call in an envelope and keeps the good ones', () => {
    const parsed = parseToolCalls(reply('10-invalid-calls.txt'));
    expect(parsed.errors.map((e) => e.message)).toEqual([
      'tool_calls[0]: missing "name"',
      'tool_calls[1]: fs_list: "args" must be an object',
      expect.stringMatching(/^tool_calls\[2\]: fs_read: arguments are not valid JSON/),
      'tool_calls[3]: a call must be an object',
    ]);
    expect(parsed.calls).toEqual([{ name: 'coord_status', args: {} }]);
  });
});

describe('parseToolCalls on any text', () => {
  it('never throws, and finds nothing in text without tool_calls', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const parsed = parseToolCalls(text);
        if (!text.includes('tool_calls')) expect(parsed).toEqual({ calls: [], errors: [], envelopes: 0 });
      }),
      { numRuns: 300 },
    );
  });

  it('finds an envelope wherever it is embedded in arbitrary prose', () => {
    const envelope = JSON.stringify({ tool_calls: [{ name: 'ctx_get', args: { key: 'k' } }] });
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }).filter((s) => !s.includes('{') && !s.includes('tool_calls')),
        fc.string({ maxLength: 200 }).filter((s) => !s.includes('tool_calls')),
        (before, after) => {
          const parsed = parseToolCalls(`${before}${envelope}${after}`);
          expect(parsed.calls).toEqual([{ name: 'ctx_get', args: { key: 'k' } }]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('scans at most MAX_REPLY_CHARS of a huge reply', () => {
    const huge = `${'{'.repeat(50_000)}${'x'.repeat(MAX_REPLY_CHARS)}{"tool_calls": []}`;
    expect(parseToolCalls(huge)).toEqual({ calls: [], errors: [], envelopes: 0 });
  });

  it('bounds its work on pathological replies and caps what it reports', () => {
    const unclosed = parseToolCalls(`${'{'.repeat(30_000)}{"tool_calls": [{"name": "ctx_get"}]}`);
    expect(unclosed.errors.length).toBeGreaterThan(0);
    expect(unclosed.errors.every((e) => e.error === 'parse_error')).toBe(true);
    const many = parseToolCalls('{tool_calls} '.repeat(80_000));
    expect(many.errors).toHaveLength(20);
    expect(many.errors[0]).toMatchObject({
      error: 'parse_error',
      line: 1,
      excerpt: expect.stringMatching(/^\{tool_calls\} \{tool_calls\} /),
    });
  });

  it('reads a reply of thousands of fenced envelopes', () => {
    const fence = '```json\n{"tool_calls": [{"name": "ctx_keys", "args": {}}]}\n```\n';
    const parsed = parseToolCalls(fence.repeat(10_000));
    expect(parsed.envelopes).toBe(10_000);
    expect(parsed.calls).toHaveLength(MAX_CALLS_PER_REPLY);
  });

  it('runs at most MAX_CALLS_PER_REPLY calls of one reply', () => {
    const calls = Array.from({ length: MAX_CALLS_PER_REPLY + 5 }, (_, i) => ({ name: `t${i}`, args: {} }));
    const parsed = parseToolCalls(JSON.stringify({ tool_calls: calls }));
    expect(parsed.calls).toHaveLength(MAX_CALLS_PER_REPLY);
    expect(parsed.errors).toEqual([
      {
        error: 'invalid_envelope',
        message: `5 calls past the first ${MAX_CALLS_PER_REPLY} were not run`,
        line: 1,
        excerpt: `t${MAX_CALLS_PER_REPLY}`,
      },
    ]);
  });
});
