/**
 * `colony swarm config [--json]`: the project's resolved agent configuration
 * (providers, defaults, agents, supervisor, permissions) and which OS sandbox agent
 * commands run under (a warning when none). Validation errors are
 * printed one per line, each naming its field, and exit 1.
 */
import type { SandboxView, SwarmConfigView } from '@swarm/core/runtime';
import { defineCommand } from 'citty';
import { storeArgs } from '../../_colony';
import { CliError, printJson, printLines } from '../../_output';
import { control, controlOptions, repoArg } from './_session';

export default defineCommand({
  meta: { name: 'config', description: 'Show the resolved agent configuration of the project.' },
  args: {
    json: { type: 'boolean', description: 'Print the configuration as JSON' },
    ...repoArg,
    ...storeArgs,
  },
  async run({ args }) {
    const { swarmConfig } = await import('@swarm/core/runtime');
    const { cwd, home } = controlOptions(args);
    const result = await control(() => swarmConfig({ cwd, ...(home ? { home } : {}) }));
    for (const warning of result.warnings) process.stderr.write(`colony: warning: ${warning}\n`);
    if (!result.config) throw new CliError(result.errors.map((e) => e.message).join('\n'));
    if (args.json) return printJson(result.config);
    printLines(configLines(result.config, result.settings_path));
  },
});

function configLines(c: SwarmConfigView, path: string): string[] {
  const d = c.defaults;
  const l = d.liveness;
  const secs = (n: number | null) => (n === null ? 'off' : `${n}s`);
  return [
    `project ${c.project_root} (version ${c.version}, ${path})`,
    'providers:',
    ...Object.values(c.providers).map(
      (p) =>
        `  ${p.name}  ${p.type}  key $${p.api_key_env}${p.base_url ? `  base_url ${p.base_url}` : ''}${p.max_retries !== null ? `  max_retries ${p.max_retries}` : ''}${p.timeout !== null ? `  timeout ${p.timeout}s` : ''}`,
    ),
    'defaults:',
    `  model ${d.model}  provider ${d.provider}  mode ${d.mode ?? '(agent)'}  session_timeout ${secs(d.session_timeout)}  commit_interval ${d.commit_interval}s`,
    `  errors: max_consecutive ${d.max_consecutive_errors}, max_total ${d.max_total_errors}`,
    `  liveness ${l.enabled ? 'on' : 'off'}: nudge after ${secs(l.idle_nudge_after_secs)} every ${secs(l.idle_nudge_interval_secs)} (max ${l.max_nudges}), warn after ${secs(l.idle_warn_after_secs)}, stall ${secs(l.stall_timeout_secs)}${l.auto_interrupt_stalled ? ', auto-interrupt' : ''}`,
    'agents:',
    ...c.agents.map(
      (a) =>
        `  ${a.name}  model ${a.model} (${a.model_id})  provider ${a.provider}  mode ${a.mode}  prompt ${a.prompt_source === 'inline' ? `"${oneLine(a.prompt)}"` : `@${a.prompt_source}`}`,
    ),
    `supervisor: model ${c.supervisor.model} (${c.supervisor.model_id})  prompt "${oneLine(c.supervisor.prompt)}"`,
    `permissions: ${c.permissions ? JSON.stringify(c.permissions) : '(none)'}`,
    sandboxLine(c.sandbox),
  ];
}

/** States plainly which sandbox agent bash commands run under (a warning is printed too when none). */
function sandboxLine(s: SandboxView): string {
  const policy = `mode ${s.mode}, network ${s.allow_network ? 'allowed' : 'blocked'}${s.writable.length ? `, writable ${s.writable.join(' ')}` : ''}`;
  if (s.active) return `sandbox: ${s.active} active (${policy}): ${s.reason}`;
  return `sandbox: NONE, agent commands are not sandboxed (${policy}): ${s.reason}`;
}

function oneLine(text: string): string {
  const first = text.split('\n')[0]!.trim();
  return first.length > 60 ? `${first.slice(0, 57)}...` : first;
}
