/**
 * Seed-000 file tools through the registry: what fs_list, fs_read and search_text see
 * of a workspace (git's view of it), and every way out of the workspace refused with
 * a code.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from './_fixture';
import { createWorkspace, type TestWorkspace } from './_workspace';

let fx: Fixture;
let ws: TestWorkspace;
afterEach(() => fx.close());

function setUp(): void {
  fx = createFixture();
  ws = createWorkspace(fx);
}

const call = (extra: Record<string, unknown>) => ({ agent: 'Gemini', repo_root: ws.root, ...extra });

describe('fs_list', () => {
  it('lists every file recursively as git sees the workspace, sorted per folder', async () => {
    setUp();
    const result = await fx.ok('fs_list', call({}));
    expect(result).toEqual({
      files: [
        '.gitignore',
        'README.md',
        'docs/guide.md',
        'link-main.py',
        'pkg/.gitignore',
        'pkg/keep.log',
        'pkg/lib.py',
        'src/app.ts',
        'src/main.py',
        'src/util.py',
      ],
      count: 10,
    });
  });

  it('matches a glob against the file name at any depth, or against the path when it has a slash', async () => {
    setUp();
    const py = ['link-main.py', 'pkg/lib.py', 'src/main.py', 'src/util.py'];
    expect((await fx.ok('fs_list', call({ pattern: '*.py' }))).files).toEqual(py);
    expect((await fx.ok('fs_list', call({ pattern: 'src/*.py' }))).files).toEqual(['src/main.py', 'src/util.py']);
    expect((await fx.ok('fs_list', call({ pattern: '**/*.{md,ts}' }))).files).toEqual([
      'README.md',
      'docs/guide.md',
      'src/app.ts',
    ]);
  });

  it('takes a regular expression after "regex:"', async () => {
    setUp();
    const result = await fx.ok('fs_list', call({ dir: '.', pattern: 'regex:py$', max_results: 200 }));
    expect(result.files).toEqual(['link-main.py', 'pkg/lib.py', 'src/main.py', 'src/util.py']);
    const bad = await fx.fail('fs_list', call({ pattern: 'regex:(' }));
    expect(bad).toMatchObject({ code: 'INVALID_PARAMETERS', fields: ['pattern'] });
  });

  it('lists under dir, matching relative to it and answering workspace-relative paths', async () => {
    setUp();
    expect((await fx.ok('fs_list', call({ dir: 'src', pattern: '*.py' }))).files).toEqual([
      'src/main.py',
      'src/util.py',
    ]);
    expect((await fx.ok('fs_list', call({ dir: './src/../docs' }))).files).toEqual(['docs/guide.md']);
  });

  it('stops at max_results and says it was cut short', async () => {
    setUp();
    expect(await fx.ok('fs_list', call({ max_results: 2 }))).toEqual({
      files: ['.gitignore', 'README.md'],
      count: 2,
      truncated: true,
    });
    expect(await fx.ok('fs_list', call({ pattern: '*.ts', max_results: 1 }))).toEqual({
      files: ['src/app.ts'],
      count: 1,
    });
  });

  it('refuses a missing or ignored dir and a missing workspace', async () => {
    setUp();
    expect((await fx.fail('fs_list', call({ dir: 'nope' }))).code).toBe('PATH_NOT_FOUND');
    expect((await fx.fail('fs_list', call({ dir: 'README.md' }))).code).toBe('PATH_NOT_FOUND');
    expect((await fx.fail('fs_list', call({ dir: 'node_modules' }))).code).toBe('PATH_IGNORED');
    expect((await fx.fail('fs_list', call({ dir: 'pkg/gen' }))).code).toBe('PATH_IGNORED');
    const gone = await fx.fail('fs_list', { agent: 'Gemini', repo_root: join(ws.root, 'missing') });
    expect(gone.code).toBe('PATH_NOT_FOUND');
  });
});

describe('fs_read', () => {
  it('reads a file with its size in bytes', async () => {
    setUp();
    expect(await fx.ok('fs_read', call({ path: 'src/main.py' }))).toEqual({
      path: 'src/main.py',
      bytes: 39,
      content: 'import os\n\ndef main():\n    print("hi")\n',
    });
    expect((await fx.ok('fs_read', call({ path: `${ws.root}/docs/guide.md` }))).path).toBe('docs/guide.md');
    expect((await fx.ok('fs_read', call({ path: 'link-main.py' }))).content).toContain('def main');
  });

  it('cuts at max_bytes without splitting a character', async () => {
    setUp();
    ws.write('utf8.txt', 'ééééé');
    expect(await fx.ok('fs_read', call({ path: 'utf8.txt', max_bytes: 5 }))).toEqual({
      path: 'utf8.txt',
      bytes: 4,
      content: 'éé',
      truncated: true,
      size: 10,
    });
    expect(await fx.ok('fs_read', call({ path: 'src/main.py', max_bytes: 6 }))).toMatchObject({
      content: 'import',
      bytes: 6,
      truncated: true,
      size: 39,
    });
  });

  it('does not send binary content', async () => {
    setUp();
    writeFileSync(join(ws.root, 'blob.bin'), Buffer.from([1, 2, 0, 3]));
    expect(await fx.ok('fs_read', call({ path: 'blob.bin' }))).toEqual({
      path: 'blob.bin',
      bytes: 0,
      content: '',
      binary: true,
    });
  });

  it('refuses what git ignores, folders and missing files', async () => {
    setUp();
    for (const path of ['debug.log', '.env', 'pkg/gen/out.py', 'node_modules/dep/index.js']) {
      expect((await fx.fail('fs_read', call({ path }))).code, path).toBe('PATH_IGNORED');
    }
    expect((await fx.ok('fs_read', call({ path: 'pkg/keep.log' }))).content).toBe('kept despite *.log\n');
    expect((await fx.fail('fs_read', call({ path: 'missing.txt' }))).code).toBe('PATH_NOT_FOUND');
    expect((await fx.fail('fs_read', call({ path: 'src' }))).code).toBe('PATH_NOT_FOUND');
  });
});

describe('search_text', () => {
  it('finds regex matches with file and 1-based line, skipping what fs_list skips', async () => {
    setUp();
    expect(await fx.ok('search_text', call({ pattern: 'def main' }))).toEqual({
      matches: [
        { file: 'link-main.py', line: 3, text: 'def main():' },
        { file: 'pkg/lib.py', line: 1, text: 'def main(): lib' },
        { file: 'src/main.py', line: 3, text: 'def main():' },
      ],
      count: 3,
    });
    const scoped = await fx.ok('search_text', call({ pattern: '^def \\w+\\(', dir: 'src', max_matches: 50 }));
    expect(scoped.matches).toEqual([
      { file: 'src/main.py', line: 3, text: 'def main():' },
      { file: 'src/util.py', line: 1, text: 'def helper():' },
    ]);
  });

  it('stops at max_matches, trims long lines and skips binary files', async () => {
    setUp();
    ws.write('long.txt', `${'needle '.repeat(100)}\nneedle\nneedle\n`);
    writeFileSync(join(ws.root, 'blob.bin'), Buffer.concat([Buffer.from('needle'), Buffer.from([0])]));
    const result = await fx.ok('search_text', call({ pattern: 'needle', max_matches: 2 }));
    expect(result.count).toBe(2);
    expect(result.truncated).toBe(true);
    expect(result.matches[0].text).toHaveLength(200);
    expect(result.matches.map((m: { file: string }) => m.file)).toEqual(['long.txt', 'long.txt']);
  });

  it('matches in linear time: a catastrophic-backtracking pattern answers at once', async () => {
    setUp();
    ws.write('evil.txt', `${'a'.repeat(5_000)}!\n`);
    const started = performance.now();
    const result = await fx.ok('search_text', call({ pattern: '^(a+)+$', max_matches: 5 }));
    // A backtracking RegExp takes longer than the universe's age on this line.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.matches).toEqual([]);
    const listed = await fx.ok('fs_list', call({ pattern: `regex:^(a|aa)+$`, max_results: 5 }));
    expect(listed.files).toEqual([]);
  });

  it('refuses lookaround and backreferences (not RE2) as INVALID_PARAMETERS', async () => {
    setUp();
    for (const pattern of ['(?=def)', '(a)\\1']) {
      expect(await fx.fail('search_text', call({ pattern }))).toMatchObject({
        code: 'INVALID_PARAMETERS',
        fields: ['pattern'],
      });
    }
  });

  it('answers INVALID_PARAMETERS for a broken regular expression', async () => {
    setUp();
    expect(await fx.fail('search_text', call({ pattern: '[a-' }))).toMatchObject({
      code: 'INVALID_PARAMETERS',
      fields: ['pattern'],
    });
  });
});

/** Every way out of the workspace, and the code each answers with, for every file tool. */
const ESCAPES: ReadonlyArray<readonly [string, (ws: TestWorkspace) => string, string]> = [
  ['parent traversal', () => '../repo-outside/secret.txt', 'PATH_OUTSIDE_REPO'],
  ['deep traversal', () => '../../../../../../etc/passwd', 'PATH_OUTSIDE_REPO'],
  ['traversal after a folder', () => 'src/../../repo-outside/secret.txt', 'PATH_OUTSIDE_REPO'],
  ['backslash traversal', () => '..\\repo-outside\\secret.txt', 'PATH_OUTSIDE_REPO'],
  ['absolute path elsewhere', () => '/etc/passwd', 'PATH_OUTSIDE_REPO'],
  ['absolute sibling sharing the prefix', (w) => `${w.root}-outside/secret.txt`, 'PATH_OUTSIDE_REPO'],
  ['symlinked folder leading out', () => 'link-out/secret.txt', 'PATH_OUTSIDE_REPO'],
  ['symlinked file leading out', () => 'link-secret.txt', 'PATH_OUTSIDE_REPO'],
  ['dangling symlink', () => 'dangling.txt', 'PATH_OUTSIDE_REPO'],
  ['NUL byte', () => 'src/main.py\u0000.txt', 'INVALID_PARAMETERS'],
  ['control character', () => 'src/\u001bmain.py', 'INVALID_PARAMETERS'],
  ['path over 4096 characters', () => `src/${'a/'.repeat(2100)}x`, 'INVALID_PARAMETERS'],
  ['name over the file-system limit', () => `src/${'n'.repeat(300)}.py`, 'INVALID_PARAMETERS'],
  ['inside .git', () => '.git/config', 'PATH_IGNORED'],
  ['a git hook', () => '.git/hooks/pre-commit', 'PATH_IGNORED'],
];

describe('escape attempts', () => {
  it.each(ESCAPES)('%s: refused by every file tool', async (_label, pathOf, code) => {
    setUp();
    const path = pathOf(ws);
    const before = fx.observations();
    const answers = [
      await fx.fail('fs_read', call({ path })),
      await fx.fail('fs_write', call({ path, content: 'pwned' })),
      await fx.fail('fs_list', call({ dir: path })),
      await fx.fail('search_text', call({ pattern: 'x', dir: path })),
      await fx.fail('arbiter_decide', call({ decisions: [{ path, action: 'approve' }] })),
    ];
    for (const answer of answers) expect(answer.code, `${answer.tool}: ${answer.error}`).toBe(code);
    expect(fx.observations()).toBe(before);
    expect((await fx.ok('fs_proposals', call({}))).count).toBe(0);
  });
});
