/**
 * @module memory/compress
 * The compressed ("caveman") form of an observation body, returned by
 * get_observations with expand:false. Bodies are stored verbatim; this form is derived
 * on read, so compression can never lose what was written. It drops filler words and
 * abbreviates common long words, but leaves code, paths, URLs, identifiers and
 * numbers exactly as they were.
 */

const FILLER = new Set([
  'a',
  'an',
  'the',
  'just',
  'really',
  'very',
  'basically',
  'actually',
  'simply',
  'quite',
  'please',
  'somewhat',
]);

const ABBREVIATIONS: Record<string, string> = {
  function: 'fn',
  functions: 'fns',
  configuration: 'config',
  implementation: 'impl',
  implement: 'impl',
  repository: 'repo',
  repositories: 'repos',
  directory: 'dir',
  directories: 'dirs',
  dependency: 'dep',
  dependencies: 'deps',
  environment: 'env',
  database: 'db',
  message: 'msg',
  messages: 'msgs',
  because: 'bc',
  without: 'w/o',
  with: 'w/',
  information: 'info',
  application: 'app',
  parameter: 'param',
  parameters: 'params',
  argument: 'arg',
  arguments: 'args',
  documentation: 'docs',
  authentication: 'authn',
  authorization: 'authz',
  request: 'req',
  response: 'resp',
  and: '&',
  number: 'num',
  before: 'b4',
  between: 'btwn',
  should: 'shd',
  would: 'wd',
  something: 'sth',
};

// Spans kept verbatim: fenced code, inline code, URLs, and words that look like code.
const VERBATIM = /```[\s\S]*?```|`[^`\n]*`|https?:\/\/\S+/g;

export function compressContent(content: string): string {
  const out: string[] = [];
  let last = 0;
  for (const match of content.matchAll(VERBATIM)) {
    out.push(compressProse(content.slice(last, match.index)), match[0]);
    last = match.index + match[0].length;
  }
  out.push(compressProse(content.slice(last)));
  // compressProse already collapses prose whitespace; the verbatim spans keep theirs (code indentation).
  return out.join('').trim();
}

function compressProse(text: string): string {
  return text
    .split(/(\s+)/)
    .map((token) => {
      if (/^\s+$/.test(token)) return token.includes('\n') ? '\n' : ' ';
      return compressWord(token);
    })
    .join('')
    .replace(/ +([,.;:!?])/g, '$1')
    .replace(/ {2,}/g, ' ');
}

function compressWord(token: string): string {
  // Identifiers, paths, numbers and mixed-case words are code-like: keep them.
  if (/[/\\_$#@=<>{}()[\]0-9]/.test(token) || /[a-z][A-Z]/.test(token) || /\.\w/.test(token)) return token;
  const match = /^([^\p{L}]*)(\p{L}+)([^\p{L}]*)$/u.exec(token);
  if (!match) return token;
  const [, lead = '', word = '', trail = ''] = match;
  const lower = word.toLowerCase();
  if (FILLER.has(lower)) return lead + trail;
  const short = ABBREVIATIONS[lower];
  if (!short) return token;
  return (
    lead +
    (word[0] === word[0]?.toUpperCase() && word.length > 1 && word !== word.toUpperCase() ? cap(short) : short) +
    trail
  );
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
