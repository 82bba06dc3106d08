/**
 * @module framework/fences
 * Fenced code blocks of a model's reply (``` or ~~~), and blanking them out of the
 * prose with offsets and line numbers kept.
 */

/** Spaces for everything but line breaks, so offsets and line numbers stay true. */
export function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}

export interface Fence {
  readonly start: number;
  readonly end: number;
  readonly bodyStart: number;
  readonly bodyEnd: number;
  readonly lang: string;
}

/** Fenced code blocks (``` or ~~~, three or more), an unclosed one running to the end. */
export function fences(text: string): Fence[] {
  const out: Fence[] = [];
  const open = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^\n]*$/gm;
  let match: RegExpExecArray | null;
  for (;;) {
    match = open.exec(text);
    if (!match) break;
    const marker = match[1]!;
    const bodyStart = Math.min(text.length, match.index + match[0].length + 1);
    const close = new RegExp(`^[ \\t]{0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`, 'gm');
    close.lastIndex = bodyStart;
    const closing = close.exec(text);
    const bodyEnd = closing ? closing.index : text.length;
    const end = closing ? closing.index + closing[0].length : text.length;
    out.push({ start: match.index, end, bodyStart, bodyEnd, lang: match[2]!.toLowerCase() });
    open.lastIndex = Math.max(end, open.lastIndex);
  }
  return out;
}
