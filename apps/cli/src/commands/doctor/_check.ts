/**
 * @module doctor/check
 * One doctor check's outcome, the stable shape `colony doctor --json` prints in
 * `checks` (see docs/cli.md): `id`, `status` (ok, warn, fail), `message`, and when
 * there is something to do, `fix`; `details` holds check-specific values.
 */

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  readonly id: string;
  readonly status: CheckStatus;
  readonly message: string;
  readonly fix?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** What every check is given: the store flags, the environment, the user's home, and --fix. */
export interface DoctorContext {
  readonly db?: string | undefined;
  readonly home?: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly userHome: string;
  readonly fix: boolean;
}
