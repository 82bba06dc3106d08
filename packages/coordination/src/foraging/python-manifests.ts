/**
 * @module foraging/python-manifests
 * What a Python example declares: PEP 621 `[project]` and Poetry tables of
 * pyproject.toml (already parsed TOML), setup.cfg's `[options] install_requires`,
 * setup.py's literal `install_requires=[...]` (read by pattern, never executed) and
 * requirements.txt lines. Requirements are PEP 508 strings: name -> specifier ('*'
 * when none).
 */

export interface PyProject {
  readonly name: string | null;
  readonly version: string | null;
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
  readonly scripts: Record<string, string>;
  readonly entryHints: string[];
  readonly notes: string[];
}

const REQUIREMENT = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;#]*)/;

/** One PEP 508 requirement as [name, specifier]; null for options, URLs and blanks. */
export function requirementOf(line: string): [string, string] | null {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('-')) return null;
  const m = REQUIREMENT.exec(trimmed);
  if (!m?.[1]) return null;
  const spec = (m[3] ?? '').trim();
  return [m[1], spec === '' ? '*' : spec];
}

function requirements(list: readonly unknown[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    if (typeof item !== 'string') continue;
    const req = requirementOf(item);
    if (req) out[req[0]] = req[1];
  }
  return out;
}

export function parseRequirements(text: string): Record<string, string> {
  return requirements(text.split('\n'));
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Poetry's table form: { requests = "^2.0", rich = { version = "^13" } }, without python itself. */
function poetryDeps(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [name, spec] of Object.entries(value)) {
    if (name === 'python') continue;
    if (typeof spec === 'string') out[name] = spec;
    else if (isRecord(spec)) out[name] = typeof spec.version === 'string' ? spec.version : '*';
  }
  return out;
}

/** `module.path:function` script targets as candidate files (module.py or module/__init__.py under src/ or not). */
function scriptHints(scripts: Record<string, string>): string[] {
  return Object.values(scripts).flatMap((target) => {
    const module = target.split(':')[0]?.trim();
    if (!module) return [];
    const path = module.replaceAll('.', '/');
    return [`${path}.py`, `src/${path}.py`, `${path}/__main__.py`, `src/${path}/__main__.py`];
  });
}

function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function parsePyProject(toml: Record<string, unknown>): PyProject {
  const project = isRecord(toml.project) ? toml.project : {};
  const tool = isRecord(toml.tool) ? toml.tool : {};
  const poetry = isRecord(tool.poetry) ? tool.poetry : {};
  const dependencies = {
    ...poetryDeps(poetry.dependencies),
    ...requirements(Array.isArray(project.dependencies) ? project.dependencies : []),
  };
  const devDependencies: Record<string, string> = { ...poetryDeps(poetry['dev-dependencies']) };
  if (isRecord(poetry.group)) {
    for (const group of Object.values(poetry.group)) {
      if (isRecord(group)) Object.assign(devDependencies, poetryDeps(group.dependencies));
    }
  }
  const optional = isRecord(project['optional-dependencies']) ? project['optional-dependencies'] : {};
  for (const list of Object.values(optional))
    if (Array.isArray(list)) Object.assign(devDependencies, requirements(list));
  const scripts = { ...stringMap(poetry.scripts), ...stringMap(project.scripts) };
  const notes =
    Array.isArray(project.dynamic) && project.dynamic.includes('dependencies')
      ? ['pyproject.toml declares dependencies as dynamic: the list may be incomplete.']
      : [];
  return {
    name: str(project.name) ?? str(poetry.name),
    version: str(project.version) ?? str(poetry.version),
    dependencies,
    devDependencies,
    scripts,
    entryHints: scriptHints(scripts),
    notes,
  };
}

/** setup.cfg: `[metadata] name/version` and the indented lines of `[options] install_requires`. */
export function parseSetupCfg(text: string): PyProject {
  let section = '';
  let collecting = false;
  const deps: string[] = [];
  const meta: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (header?.[1]) {
      section = header[1].trim();
      collecting = false;
      continue;
    }
    const entry = /^([A-Za-z_][\w-]*)\s*=\s*(.*)$/.exec(raw);
    if (entry?.[1]) {
      collecting = section === 'options' && entry[1] === 'install_requires';
      if (collecting && entry[2]?.trim()) deps.push(entry[2]);
      if (section === 'metadata') meta[entry[1]] = (entry[2] ?? '').trim();
    } else if (collecting && /^\s+\S/.test(raw)) deps.push(raw);
  }
  return {
    name: str(meta.name),
    version: str(meta.version),
    dependencies: requirements(deps),
    devDependencies: {},
    scripts: {},
    entryHints: [],
    notes: [],
  };
}

/** setup.py is code: only a literal install_requires list and name/version strings are read. */
export function parseSetupPy(text: string): PyProject {
  const list = /install_requires\s*=\s*\[([^\]]*)\]/.exec(text)?.[1];
  const quoted = list ? [...list.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '') : [];
  const field = (name: string) => new RegExp(`\\b${name}\\s*=\\s*['"]([^'"]+)['"]`).exec(text)?.[1] ?? null;
  return {
    name: field('name'),
    version: field('version'),
    dependencies: requirements(quoted),
    devDependencies: {},
    scripts: {},
    entryHints: [],
    notes: ['setup.py is read by pattern, not run: computed dependencies are missed.'],
  };
}
