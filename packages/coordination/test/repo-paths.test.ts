import { ColonyError } from '@swarm/tools';
import { describe, expect, it } from 'vitest';
import { normalizeRepoPath } from '../src/repo-paths';

describe('normalizeRepoPath', () => {
  it.each([
    ['src/a.ts', 'src/a.ts'],
    ['./src/a.ts', 'src/a.ts'],
    ['src/./lib/../a.ts', 'src/a.ts'],
    ['/abs/repo/src/a.ts', 'src/a.ts'],
    ['src\\win\\a.ts', 'src/win/a.ts'],
  ])('spells %s as %s', (input, expected) => {
    expect(normalizeRepoPath('/abs/repo', input)).toBe(expected);
  });

  it.each(['../other/a.ts', '/etc/passwd', 'src/../../x', '/abs/repo', '.', '/abs/repository/a.ts'])(
    'refuses %s with PATH_OUTSIDE_REPO',
    (input) => {
      try {
        normalizeRepoPath('/abs/repo/', input);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ColonyError);
        expect((error as ColonyError).code).toBe('PATH_OUTSIDE_REPO');
      }
    },
  );
});
