/**
 * The architecture, pinned by a test (ARCHITECTURE.md "Dependencies point down"):
 * reads every packages/* and apps/* package.json and the import specifiers of their
 * sources, and fails on an undeclared @swarm/* import, on a dependency that points
 * up (or at an app), and on a cycle: between packages, and between the source files of
 * one package (every relative import counts, `import type` and `export type` included).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SCOPE = '@swarm/';

/** Which workspace packages each one may depend on. Apps may use only core and tools. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  '@swarm/storage': [],
  '@swarm/tools': [],
  '@swarm/worktree': [],
  '@swarm/coordination': ['@swarm/storage', '@swarm/tools'],
  '@swarm/core': ['@swarm/coordination', '@swarm/runtime', '@swarm/storage', '@swarm/tools', '@swarm/worktree'],
  '@swarm/providers': [],
  '@swarm/runtime': ['@swarm/providers', '@swarm/tools', '@swarm/worktree'],
};
const APP_ALLOWED = ['@swarm/core', '@swarm/tools'];

interface Workspace {
  readonly name: string;
  readonly dir: string;
  readonly kind: 'package' | 'app';
  /** Runtime dependencies: dependencies and peerDependencies. */
  readonly runtime: readonly string[];
  readonly dev: readonly string[];
  /** Every @swarm/* package imported by a non-test source file, with where. */
  readonly imports: ReadonlyMap<string, readonly string[]>;
}

interface Violation {
  readonly rule: 'undeclared-import' | 'upward-dependency' | 'imports-an-app' | 'unknown-package' | 'cycle';
  readonly message: string;
}

function readWorkspaces(): Workspace[] {
  const out: Workspace[] = [];
  for (const [folder, kind] of [
    ['packages', 'package'],
    ['apps', 'app'],
  ] as const) {
    const base = join(ROOT, folder);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      const manifest = join(base, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, Record<string, string> | string>;
      const deps = (field: string) => Object.keys((pkg[field] as Record<string, string> | undefined) ?? {});
      const dir = join(base, entry.name);
      out.push({
        name: pkg.name as string,
        dir,
        kind,
        runtime: [...deps('dependencies'), ...deps('peerDependencies')].filter((d) => d.startsWith(SCOPE)),
        dev: deps('devDependencies').filter((d) => d.startsWith(SCOPE)),
        imports: scanImports(join(dir, 'src')),
      });
    }
  }
  return out;
}

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const TEST = /(?:\.test|\.spec)\.[cm]?[jt]sx?$|(?:^|\/)(?:test|__tests__)\//;
/** import/export ... from 'x', import 'x', import('x'), require('x'). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;

function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(SPECIFIER)].map((m) => m[2]!);
}

/** `@swarm/tools/mcp` -> `@swarm/tools`. */
function packageOf(specifier: string): string | null {
  if (!specifier.startsWith(SCOPE)) return null;
  return specifier.split('/').slice(0, 2).join('/');
}

function scanImports(srcDir: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  if (!existsSync(srcDir)) return found;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') && !TEST.test(relative(srcDir, path))) {
        for (const spec of importSpecifiers(readFileSync(path, 'utf8'))) {
          const pkg = packageOf(spec);
          if (pkg) found.set(pkg, [...(found.get(pkg) ?? []), relative(ROOT, path)]);
        }
      }
    }
  };
  walk(srcDir);
  return found;
}

/** Every rule, as a pure function of the workspaces: testable on a made-up graph. */
function findViolations(workspaces: readonly Workspace[]): Violation[] {
  const violations: Violation[] = [];
  const byName = new Map(workspaces.map((w) => [w.name, w]));
  const apps = new Set(workspaces.filter((w) => w.kind === 'app').map((w) => w.name));

  for (const w of workspaces) {
    // An app is one bundle: the workspace packages it imports are inlined at build time,
    // so it may declare them as dev dependencies (the published CLI must, see issue 16).
    const declared = w.kind === 'app' ? [...w.runtime, ...w.dev] : w.runtime;
    for (const [pkg, files] of w.imports) {
      if (pkg === w.name) continue;
      if (!declared.includes(pkg)) {
        violations.push({
          rule: 'undeclared-import',
          message: `${w.name} imports ${pkg} (${files[0]}) without declaring it in dependencies`,
        });
      }
    }
    const allowed = w.kind === 'app' ? APP_ALLOWED : ALLOWED[w.name];
    if (allowed === undefined) {
      violations.push({
        rule: 'unknown-package',
        message: `${w.name} has no place in the topology: add it to ALLOWED in test/topology.test.ts`,
      });
      continue;
    }
    for (const dep of w.kind === 'app' ? new Set([...w.runtime, ...w.imports.keys()]) : w.runtime) {
      if (apps.has(dep)) violations.push({ rule: 'imports-an-app', message: `${w.name} depends on app ${dep}` });
      else if (byName.has(dep) && !allowed.includes(dep)) {
        violations.push({ rule: 'upward-dependency', message: `${w.name} -> ${dep} points up or sideways` });
      }
    }
    // Tests may reach further down, but never up to an app.
    for (const dep of w.dev) {
      if (apps.has(dep)) violations.push({ rule: 'imports-an-app', message: `${w.name} (dev) depends on app ${dep}` });
    }
  }

  // Cycles over every declared workspace edge, dev dependencies included.
  const edges = new Map(
    workspaces.map((w) => [
      w.name,
      [...new Set([...w.runtime, ...w.dev, ...w.imports.keys()])].filter((d) => byName.has(d) && d !== w.name),
    ]),
  );
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      violations.push({ rule: 'cycle', message: [...path.slice(path.indexOf(name)), name].join(' -> ') });
      return;
    }
    state.set(name, 'visiting');
    for (const next of edges.get(name) ?? []) visit(next, [...path, name]);
    state.set(name, 'done');
  };
  for (const name of edges.keys()) visit(name, []);
  return violations;
}

/** Source files of a package's src/, tests excluded. */
function sourceFiles(srcDir: string): string[] {
  const out: string[] = [];
  if (!existsSync(srcDir)) return out;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') && !TEST.test(relative(srcDir, path))) {
        out.push(path);
      }
    }
  };
  walk(srcDir);
  return out.sort();
}

/** A relative specifier to the file it names: `./x`, `./x.js` -> x.ts, `./dir` -> dir/index.ts. */
function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.[cm]?js$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts')]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

/** Each cycle of a graph once, as `a -> b -> a`, starting from its first node in sorted order. */
function findCycles(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'visiting') {
      cycles.push([...path.slice(path.indexOf(node)), node].join(' -> '));
      return;
    }
    state.set(node, 'visiting');
    for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of [...edges.keys()].sort()) visit(node, []);
  return cycles;
}

/** Import cycles between the source files of one package, type-only imports included. */
function fileCycles(dir: string): string[] {
  const srcDir = join(dir, 'src');
  const files = sourceFiles(srcDir);
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolveRelative(file, spec, known))
      .filter((target): target is string => target !== null);
    edges.set(
      relative(srcDir, file),
      [...new Set(targets)].map((t) => relative(srcDir, t)),
    );
  }
  return findCycles(edges);
}

describe('package topology', () => {
  const workspaces = readWorkspaces();

  it('finds the workspaces and their imports', () => {
    const names = workspaces.map((w) => w.name);
    for (const name of ['@swarm/storage', '@swarm/tools', '@swarm/coordination', '@swarm/core', '@swarm/cli']) {
      expect(names).toContain(name);
    }
    const coordination = workspaces.find((w) => w.name === '@swarm/coordination')!;
    expect([...coordination.imports.keys()].sort()).toEqual(['@swarm/storage', '@swarm/tools']);
  });

  it('has no undeclared import, no upward dependency, no dependency on an app, and no cycle', () => {
    expect(findViolations(workspaces).map((v) => `${v.rule}: ${v.message}`)).toEqual([]);
  });

  it('has no import cycle between the source files of a package, type imports included', () => {
    const cycles = workspaces.flatMap((w) => fileCycles(w.dir).map((c) => `${w.name}: ${c}`));
    expect(cycles).toEqual([]);
  });

  it('keeps @swarm/tools and @swarm/storage free of colony packages', () => {
    for (const name of ['@swarm/tools', '@swarm/storage']) {
      const w = workspaces.find((x) => x.name === name)!;
      expect([...w.runtime, ...w.imports.keys()].filter((d) => d !== name)).toEqual([]);
    }
  });
});

describe('the topology rules themselves', () => {
  const ws = (over: Partial<Workspace> & Pick<Workspace, 'name'>): Workspace => ({
    dir: '',
    kind: 'package',
    runtime: [],
    dev: [],
    imports: new Map(),
    ...over,
  });

  it('read import specifiers of every form, ignoring comments', () => {
    const source = [
      "import { a } from '@swarm/storage';",
      'import type { B } from "@swarm/tools";',
      "export * from '@swarm/core';",
      "import '@swarm/side-effect';",
      "const lazy = await import('@swarm/lazy');",
      "const req = require('@swarm/req');",
      "// import { no } from '@swarm/commented';",
      "/* import { no } from '@swarm/blocked'; */",
      "import {\n  multi,\n} from '@swarm/tools/mcp';",
    ].join('\n');
    expect(importSpecifiers(source).map(packageOf)).toEqual([
      '@swarm/storage',
      '@swarm/tools',
      '@swarm/core',
      '@swarm/side-effect',
      '@swarm/lazy',
      '@swarm/req',
      '@swarm/tools',
    ]);
    expect(packageOf('zod')).toBeNull();
  });

  it('catch an undeclared import', () => {
    const v = findViolations([
      ws({ name: '@swarm/storage' }),
      ws({ name: '@swarm/tools', imports: new Map([['@swarm/storage', ['x.ts']]]) }),
    ]);
    expect(v.map((x) => x.rule)).toContain('undeclared-import');
  });

  it('catch an upward dependency, a package depending on an app, and an unknown package', () => {
    const v = findViolations([
      ws({ name: '@swarm/storage', runtime: ['@swarm/core'] }),
      ws({ name: '@swarm/core' }),
      ws({ name: '@swarm/tools', dev: ['@swarm/cli'] }),
      ws({ name: '@swarm/cli', kind: 'app', runtime: ['@swarm/storage'] }),
      ws({ name: '@swarm/mystery' }),
    ]);
    expect(v.map((x) => x.rule).sort()).toEqual([
      'imports-an-app',
      'unknown-package',
      'upward-dependency',
      'upward-dependency',
    ]);
  });

  it('let an app (a bundle) import what it declares as a dev dependency, but only what apps may use', () => {
    const imports = (pkgs: string[]) => new Map(pkgs.map((p) => [p, ['src/x.ts']] as const));
    const v = findViolations([
      ws({ name: '@swarm/core' }),
      ws({ name: '@swarm/storage' }),
      ws({ name: '@swarm/cli', kind: 'app', dev: ['@swarm/core'], imports: imports(['@swarm/core']) }),
      ws({ name: '@swarm/tools', dev: ['@swarm/storage'], imports: imports(['@swarm/storage']) }),
      ws({ name: '@swarm/worker', kind: 'app', dev: ['@swarm/storage'], imports: imports(['@swarm/storage']) }),
    ]);
    expect(v.map((x) => `${x.rule}: ${x.message.split(' ')[0]}`).sort()).toEqual([
      'undeclared-import: @swarm/tools',
      'upward-dependency: @swarm/worker',
    ]);
  });

  it('catch a cycle, dev dependencies included', () => {
    const v = findViolations([
      ws({ name: '@swarm/coordination', runtime: ['@swarm/storage'] }),
      ws({ name: '@swarm/storage', dev: ['@swarm/coordination'] }),
    ]);
    expect(v.filter((x) => x.rule === 'cycle').map((x) => x.message)).toEqual([
      '@swarm/coordination -> @swarm/storage -> @swarm/coordination',
    ]);
  });

  it('catch a file cycle made only of type imports, and resolve .js specifiers and folders', () => {
    const files = new Set(['/p/src/a.ts', '/p/src/b/index.ts']);
    expect(resolveRelative('/p/src/b/index.ts', '../a.js', files)).toBe('/p/src/a.ts');
    expect(resolveRelative('/p/src/a.ts', './b', files)).toBe('/p/src/b/index.ts');
    expect(resolveRelative('/p/src/a.ts', './missing', files)).toBeNull();
    const specs = importSpecifiers("import type { B } from './b';\nexport type * from './c';");
    expect(specs).toEqual(['./b', './c']);
    const edges = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(findCycles(edges)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
  });
});
