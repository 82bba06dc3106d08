/**
 * @module framework/gitignore
 * .gitignore rules of a workspace, as git applies them: each folder's .gitignore
 * speaks about paths below that folder, deeper files override shallower ones (a `!`
 * rule re-includes), and nothing inside an excluded folder can be re-included.
 * Rules are read lazily, once per folder, with the `ignore` library.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import { gitignore } from '../_lazy-deps';

export class GitIgnore {
  readonly #root: string;
  readonly #rules = new Map<string, Ignore | null>();

  constructor(root: string) {
    this.#root = root;
  }

  /** Whether the entry itself is excluded; the caller knows its folders are not. */
  ignoredEntry(rel: string, isDir: boolean): boolean {
    const parts = rel.split('/');
    let ignored = false;
    // From the root's .gitignore down to the entry's own folder: the deepest rule that speaks wins.
    for (let depth = 0; depth < parts.length; depth++) {
      const rules = this.#rulesOf(parts.slice(0, depth).join('/'));
      if (!rules) continue;
      const below = parts.slice(depth).join('/') + (isDir ? '/' : '');
      const result = rules.test(below);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  /** Whether the path or any folder above it is excluded. */
  ignoredPath(rel: string, isDir: boolean): boolean {
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
      if (this.ignoredEntry(parts.slice(0, i).join('/'), i < parts.length || isDir)) return true;
    }
    return false;
  }

  #rulesOf(dir: string): Ignore | null {
    let rules = this.#rules.get(dir);
    if (rules === undefined) {
      rules = null;
      try {
        const text = readFileSync(join(this.#root, dir, '.gitignore'), 'utf8');
        rules = gitignore()().add(text);
      } catch {
        // No .gitignore here (or unreadable): no rules from this folder.
      }
      this.#rules.set(dir, rules);
    }
    return rules;
  }
}
