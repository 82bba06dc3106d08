/**
 * @module skills/_split
 * Splits a skill file at its frontmatter: the YAML between a first line `---` and the
 * next line `---`, and the body after it. A file without the opening line is all body;
 * one without the closing line is all body too, with a warning (nothing is lost).
 */

export function splitFrontmatter(text: string): { yaml: string | null; body: string; warnings: string[] } {
  const lines = text.split('\n');
  if (lines[0]?.trimEnd() !== '---') return { yaml: null, body: text, warnings: [] };
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  if (close < 0) {
    return { yaml: null, body: text, warnings: ['frontmatter has no closing "---": loaded as body, with defaults'] };
  }
  const body = lines
    .slice(close + 1)
    .join('\n')
    .replace(/^(\s*\r?\n)+/, '');
  return { yaml: lines.slice(1, close).join('\n'), body, warnings: [] };
}
