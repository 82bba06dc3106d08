import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, secretRedactor, streamRedactor } from '../src/index';

/** Feeds `text` to a stream redactor cut at the given offsets. */
function streamed(secrets: string[], text: string, cuts: number[]): string {
  const r = streamRedactor(secrets);
  let out = '';
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    out += r.push(text.slice(from, cut));
    from = cut;
  }
  return out + r.end();
}

describe('secretRedactor', () => {
  it('masks every occurrence, the longer of two overlapping secrets first', () => {
    const redact = secretRedactor(['abcd', 'abcdef']);
    expect(redact('x abcdef y abcd z')).toBe('x *** y *** z');
  });

  it(`leaves values shorter than ${MIN_SECRET_LENGTH} characters alone (flags, not secrets)`, () => {
    expect(secretRedactor(['1', 'on'])('1 on 10')).toBe('1 on 10');
  });

  it('treats regular-expression characters literally', () => {
    expect(secretRedactor(['a.b*c+'])('a.b*c+ axbbc')).toBe('*** axbbc');
  });
});

describe('streamRedactor', () => {
  const secret = 'sk-secret-123';
  const text = `before ${secret} middle ${secret}${secret} after`;
  const whole = secretRedactor([secret])(text);

  it('masks a secret cut at any offset, as the whole text would be', () => {
    for (let cut = 0; cut <= text.length; cut++) expect(streamed([secret], text, [cut])).toBe(whole);
  });

  it('masks a secret arriving one character at a time', () => {
    const cuts = Array.from({ length: text.length }, (_, i) => i);
    expect(streamed([secret], text, cuts)).toBe(whole);
  });

  it('never emits the start of a secret before knowing whether it completes', () => {
    const r = streamRedactor([secret]);
    expect(r.push('ok sk-sec')).toBe('ok ');
    expect(r.push('ret-123!')).toBe('***!');
    expect(r.push('sk-s')).toBe('');
    expect(r.end()).toBe('sk-s');
  });

  it('prefers the longer secret when a shorter one is its prefix and the rest comes later', () => {
    const r = streamRedactor(['abcd', 'abcdef']);
    expect(r.push('xabcd')).toBe('x');
    expect(r.push('ef y abcd z') + r.end()).toBe('*** y *** z');
  });
});
