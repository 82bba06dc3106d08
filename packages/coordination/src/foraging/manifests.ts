/**
 * @module foraging/manifests
 * Which manifest an example folder has and what it declares: name, version,
 * dependencies (name -> version range), dev dependencies, scripts and the entrypoints
 * it names. package.json -> npm; pyproject.toml, setup.cfg, setup.py or
 * requirements.txt -> pypi; Cargo.toml -> cargo; go.mod -> go; none -> unknown.
 * A manifest that is missing, too large, binary or malformed yields what could be read
 * plus a note, never an error. TOML is parsed with smol-toml.
 */
import type { ManifestKind } from '@swarm/tools';
import { toml } from '../_lazy-deps';
import { type PyProject, parsePyProject, parseRequirements, parseSetupCfg, parseSetupPy } from './python-manifests';

export interface Manifest {
  readonly kind: ManifestKind;
  /** The manifest file, relative to the example folder; null for unknown. */
  readonly file: string | null;
  readonly name: string | null;
  readonly version: string | null;
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
  readonly scripts: Record<string, string>;
  /** Example-relative files the manifest names as entrypoints (they may not exist). */
  readonly entryHints: string[];
  readonly notes: string[];
}

/** Reads an example-relative file as text; null when it is absent, too large or binary (with the reason). */
export type ManifestReader = (rel: string) => { text: string } | { text: null; reason: string };

const DETECTION: ReadonlyArray<readonly [string, ManifestKind]> = [
  ['package.json', 'npm'],
  ['pyproject.toml', 'pypi'],
  ['setup.cfg', 'pypi'],
  ['setup.py', 'pypi'],
  ['requirements.txt', 'pypi'],
  ['Cargo.toml', 'cargo'],
  ['go.mod', 'go'],
];

/** The manifest at the example's top level, by the order above. */
export function detectManifest(topLevelFiles: ReadonlySet<string>): { kind: ManifestKind; file: string | null } {
  for (const [file, kind] of DETECTION) if (topLevelFiles.has(file)) return { kind, file };
  return { kind: 'unknown', file: null };
}

function empty(kind: ManifestKind, file: string | null, notes: string[] = []): Manifest {
  return {
    kind,
    file,
    name: null,
    version: null,
    dependencies: {},
    devDependencies: {},
    scripts: {},
    entryHints: [],
    notes,
  };
}

/** Parses the detected manifest (and, for pypi, a requirements.txt beside it). */
export function readManifest(topLevelFiles: ReadonlySet<string>, read: ManifestReader): Manifest {
  const { kind, file } = detectManifest(topLevelFiles);
  if (file === null) return empty('unknown', null);
  const got = read(file);
  if (got.text === null) return empty(kind, file, [`${file} could not be read: ${got.reason}.`]);
  try {
    switch (kind) {
      case 'npm':
        return parsePackageJson(file, got.text);
      case 'cargo':
        return parseCargo(file, got.text);
      case 'go':
        return parseGoMod(file, got.text);
      default:
        return parsePython(file, got.text, topLevelFiles, read);
    }
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0]?.slice(0, 160);
    return empty(kind, file, [`${file} is malformed (${reason}); dependencies unknown.`]);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** String values of a record (others dropped). */
function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const rel = (p: string) => p.replace(/^\.\//, '');

function parsePackageJson(file: string, text: string): Manifest {
  const json: unknown = JSON.parse(text);
  if (!isRecord(json)) throw new Error('not a JSON object');
  const hints: string[] = [];
  for (const key of ['main', 'module']) if (str(json[key])) hints.push(rel(json[key] as string));
  if (typeof json.bin === 'string') hints.push(rel(json.bin));
  else hints.push(...Object.values(stringMap(json.bin)).map(rel));
  const dot = typeof json.exports === 'string' ? json.exports : isRecord(json.exports) ? json.exports['.'] : undefined;
  if (typeof dot === 'string') hints.push(rel(dot));
  else if (isRecord(dot)) hints.push(...Object.values(stringMap(dot)).map(rel));
  return {
    ...empty('npm', file),
    name: str(json.name),
    version: str(json.version),
    dependencies: stringMap(json.dependencies),
    devDependencies: stringMap(json.devDependencies),
    scripts: stringMap(json.scripts),
    entryHints: [...new Set(hints)],
  };
}

/** A Cargo dependency's requirement: its version, else where it comes from. */
function cargoRequirement(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (!isRecord(value)) return null;
  if (typeof value.version === 'string') return value.version;
  if (typeof value.path === 'string') return `path:${value.path}`;
  if (typeof value.git === 'string') return `git:${value.git}`;
  if (value.workspace === true) return 'workspace';
  return '*';
}

function cargoDeps(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(value)) {
    const req = cargoRequirement(spec);
    if (req !== null) out[name] = req;
  }
  return out;
}

function parseCargo(file: string, text: string): Manifest {
  const parsed = toml().parse(text) as Record<string, unknown>;
  const pkg = isRecord(parsed.package) ? parsed.package : {};
  const bins = Array.isArray(parsed.bin) ? parsed.bin : [];
  const hints = bins.flatMap((b) => (isRecord(b) && typeof b.path === 'string' ? [rel(b.path)] : []));
  return {
    ...empty('cargo', file),
    name: str(pkg.name),
    version: str(pkg.version),
    dependencies: cargoDeps(parsed.dependencies),
    devDependencies: cargoDeps(parsed['dev-dependencies']),
    entryHints: [...hints, 'src/main.rs', 'src/lib.rs'],
  };
}

function parseGoMod(file: string, text: string): Manifest {
  const deps: Record<string, string> = {};
  let name: string | null = null;
  let version: string | null = null;
  let inRequire = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line === '') continue;
    if (inRequire) {
      if (line === ')') inRequire = false;
      else addGoRequire(deps, line);
      continue;
    }
    const [word, ...rest] = line.split(/\s+/);
    if (word === 'module') name = rest[0] ?? null;
    else if (word === 'go') version = rest[0] ?? null;
    else if (word === 'require' && rest[0] === '(') inRequire = true;
    else if (word === 'require') addGoRequire(deps, rest.join(' '));
  }
  const notes = name === null ? ['go.mod declares no module path.'] : [];
  return {
    ...empty('go', file, notes),
    name,
    version: version && `go ${version}`,
    dependencies: deps,
    entryHints: ['main.go'],
  };
}

function addGoRequire(deps: Record<string, string>, spec: string): void {
  const [module, version] = spec.split(/\s+/);
  if (module && version) deps[module] = version;
}

function parsePython(file: string, text: string, top: ReadonlySet<string>, read: ManifestReader): Manifest {
  let project: PyProject;
  if (file === 'pyproject.toml') project = parsePyProject(toml().parse(text) as Record<string, unknown>);
  else if (file === 'setup.cfg') project = parseSetupCfg(text);
  else if (file === 'setup.py') project = parseSetupPy(text);
  else
    project = {
      name: null,
      version: null,
      dependencies: parseRequirements(text),
      devDependencies: {},
      scripts: {},
      entryHints: [],
      notes: [],
    };
  const notes = [...project.notes];
  let dependencies = project.dependencies;
  if (file !== 'requirements.txt' && top.has('requirements.txt')) {
    const req = read('requirements.txt');
    if (req.text !== null) dependencies = { ...parseRequirements(req.text), ...dependencies };
  }
  return { ...empty('pypi', file, notes), ...project, dependencies, notes };
}
