/**
 * @module doctor/native
 * Whether the native SQLite module (better-sqlite3) loads under this Node. When it was
 * built for another Node (another ABI), the whole error is kept, with the rebuild
 * command.
 */
import { nativeModuleFailure } from '../../_fatal';
import type { DoctorCheck } from './_check';

export async function nativeCheck(): Promise<DoctorCheck> {
  const node = `Node ${process.version} (ABI ${process.versions.modules})`;
  try {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(':memory:');
    const version = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
    db.close();
    return { id: 'sqlite', status: 'ok', message: `better-sqlite3 loads under ${node}, SQLite ${version}` };
  } catch (error) {
    const native = nativeModuleFailure(error);
    return {
      id: 'sqlite',
      status: 'fail',
      message: `better-sqlite3 does not load under ${node}: ${native?.message ?? (error as Error).message}`,
      fix: native?.fix ?? 'reinstall colony with this Node',
    };
  }
}
