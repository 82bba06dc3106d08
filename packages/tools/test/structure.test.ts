/**
 * The shape of the package, pinned: every field name a tool's `docs.returns` names is a
 * key of the result type its handler answers (read with the TypeScript checker, so the
 * prose in docs/mcp.md cannot drift from the types), each tool family lives in one file
 * under src/tools/, the index names its exports, ERROR_CODES lists each code once, and
 * no source line runs past 160 characters (docs prose is wrapped in string pieces).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { COLONY_TOOLS, ERROR_CODES } from '../src/index';

const SRC = join(import.meta.dirname, '..', 'src');
const TOOLS_DIR = join(SRC, 'tools');

/**
 * Words inside braces of a `returns` text that are not result keys: placeholders for
 * map keys, and shapes the text quotes from elsewhere (an audit observation's metadata).
 */
const NOT_RESULT_KEYS: Readonly<Record<string, readonly string[]>> = {
  recall_session: ['recalled_session_id', 'owner_ide', 'observation_ids', 'around_id', 'limit'],
  examples_integrate_plan: ['name'],
};

/** Names a `returns` text uses as object keys: `{ a, b: x, c? }` yields a, b, c. */
export function documentedKeys(returns: string): string[] {
  const text = returns.replace(/"[^"]*"|'[^']*'/g, '""');
  return [...new Set([...text.matchAll(/[{,]\s*([A-Za-z_][A-Za-z0-9_]*)\??\s*(?=[,}:|])/g)].map((m) => m[1]!))];
}

/** Every property name reachable in a type: through arrays, unions, intersections, promises. */
function keysOf(checker: ts.TypeChecker, root: ts.Type): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<ts.Type>();
  const walk = (type: ts.Type, depth: number) => {
    if (seen.has(type) || depth > 8) return;
    seen.add(type);
    const awaited = checker.getAwaitedType(type);
    if (awaited && awaited !== type) return walk(awaited, depth);
    if (type.isUnionOrIntersection()) {
      for (const t of type.types) walk(t, depth);
      return;
    }
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      for (const t of checker.getTypeArguments(type as ts.TypeReference)) walk(t, depth + 1);
      return;
    }
    if (!(type.flags & ts.TypeFlags.Object)) return;
    for (const prop of checker.getPropertiesOfType(type)) {
      keys.add(prop.name);
      walk(checker.getTypeOfSymbol(prop), depth + 1);
    }
  };
  walk(root, 0);
  return keys;
}

/** Each defineTool call of src/tools: its name and the keys of what its handler returns. */
function resultKeysByTool(): Map<string, Set<string>> {
  const files = readdirSync(TOOLS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(TOOLS_DIR, f));
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts'],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, Set<string>>();
  for (const file of files) {
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'defineTool' &&
        node.arguments[0] &&
        ts.isObjectLiteralExpression(node.arguments[0])
      ) {
        const props = new Map(
          node.arguments[0].properties
            .filter(ts.isPropertyAssignment)
            .map((p) => [p.name.getText(), p.initializer] as const),
        );
        const name = props.get('name');
        const handler = props.get('handler');
        if (name && ts.isStringLiteral(name) && handler) {
          const [signature] = checker.getTypeAtLocation(handler).getCallSignatures();
          if (signature) out.set(name.text, keysOf(checker, signature.getReturnType()));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(program.getSourceFile(file)!);
  }
  return out;
}

describe('docs.returns against the result types', () => {
  const keys = resultKeysByTool();

  it('reads the result type of every tool', () => {
    expect([...keys.keys()].sort()).toEqual(COLONY_TOOLS.map((t) => t.name).sort());
    for (const [name, set] of keys) expect(set.size, name).toBeGreaterThan(0);
  });

  it('names only fields the result type has', () => {
    const stale: string[] = [];
    for (const tool of COLONY_TOOLS) {
      const known = keys.get(tool.name) ?? new Set<string>();
      const allowed = new Set(NOT_RESULT_KEYS[tool.name] ?? []);
      for (const key of documentedKeys(tool.docs.returns)) {
        if (!known.has(key) && !allowed.has(key)) stale.push(`${tool.name}: ${key}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('parse keys out of a returns text', () => {
    expect(documentedKeys("{ a, b: { c? }, d: 'x' | 'y', e: [ { f } ] } plus `g`")).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
    ]);
    expect(documentedKeys('[ path ] sorted; { ...same, reason }')).toEqual(['reason']);
  });
});

describe('package shape', () => {
  it('keeps each tool family in one file and the backend a composition of their slices', () => {
    const backend = readFileSync(join(SRC, 'backend.ts'), 'utf8');
    expect(backend).not.toMatch(/^export (?:interface|type) \w+(?:Result|Entry|Input)\b/m);
    expect(readdirSync(SRC).filter((f) => f.startsWith('backend-'))).toEqual([]);
    for (const file of readdirSync(TOOLS_DIR).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(TOOLS_DIR, file), 'utf8');
      expect(source, file).not.toMatch(/from '\.\.\/backend'/);
      if (source.includes('defineTool(')) expect(source, file).toMatch(/^export interface \w+Backend \{/m);
    }
  });

  it('names every export of the index (no export *)', () => {
    expect(readFileSync(join(SRC, 'index.ts'), 'utf8')).not.toMatch(/export (?:type )?\*/);
  });

  it('lists each error code once', () => {
    expect(ERROR_CODES.length).toBe(new Set(ERROR_CODES).size);
  });

  it('keeps every source line within 160 characters (prose wrapped, not one line per paragraph)', () => {
    const long: string[] = [];
    for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.generated.ts')) continue;
      readFileSync(join(SRC, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.length > MAX_LINE) long.push(`${file}:${i + 1} (${line.length} characters)`);
        });
    }
    expect(long).toEqual([]);
  });
});

/** Longest source line: the formatter wraps code at 120; prose pieces stay near it. */
const MAX_LINE = 160;
