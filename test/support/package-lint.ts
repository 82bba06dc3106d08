/**
 * The two package linters, over a packed tarball: publint (package.json against the
 * files shipped) and arethetypeswrong (types resolve as the code does). Each answers
 * its findings as lines naming the tarball; none means clean.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const ESM_ONLY_IGNORED: readonly string[] = ['node10', 'node16-cjs'];

export async function publintMessages(tarball: string): Promise<string[]> {
  const bytes = await readFile(tarball);
  const tar = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball: tar }, level: 'suggestion', strict: true });
  return messages.map((m) => `${basename(tarball)}: publint ${m.type}: ${formatMessage(m, pkg) ?? m.code}`);
}

/**
 * ESM-only packages: the esm-only profile, which leaves out node10 and node16's CommonJS
 * resolution (attw's TypeScript predates require(esm), which Node 20.19+, 22.12+ and 24
 * allow, so it would flag every CommonJS require). A package without types (the CLI) passes.
 */
export async function arethetypeswrong(tarball: string): Promise<string[]> {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(await readFile(tarball))));
  if (!analysis.types) return [];
  return analysis.problems
    .filter((p) => !('resolutionKind' in p) || !ESM_ONLY_IGNORED.includes(p.resolutionKind))
    .map((p) => `${basename(tarball)}: arethetypeswrong ${p.kind}: ${JSON.stringify(p)}`);
}
