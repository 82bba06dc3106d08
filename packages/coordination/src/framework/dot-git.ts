/**
 * @module framework/dot-git
 * Whether a path segment names `.git` on some file system. Case-insensitive file
 * systems (macOS, Windows) fold `.GIT` onto `.git`; Windows drops trailing dots and
 * spaces (`.git.`) and answers the 8.3 short name `GIT~1`; HFS+ ignores some Unicode
 * code points (`.g\u200cit`). The file tools refuse every such spelling on every
 * system, so the guard does not depend on where colony runs (git's own
 * `is_ntfs_dotgit` / `is_hfs_dotgit` checks guard the same spellings).
 */

/** Code points HFS+ ignores when comparing names. */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

export function isDotGit(segment: string): boolean {
  const folded = segment
    .normalize('NFC')
    .replace(HFS_IGNORABLE, '')
    .toLowerCase()
    .replace(/[. ]+$/, '');
  return folded === '.git' || folded === 'git~1';
}

/** Whether any segment of a `/`-separated relative path names `.git`. */
export function touchesDotGit(rel: string): boolean {
  return rel.split('/').some(isDotGit);
}
