/**
 * @module settings/create-provider
 * A resolved provider block -> a live ModelProvider. The one place settings meet
 * @swarm/providers: `anthropic` and `openai` take the block's base_url, api_key_env,
 * max_retries, timeout and models; `command` runs its preset or argv in the agent's
 * working directory; `scripted` replays the block's `script`.
 */
import {
  anthropicProvider,
  commandProvider,
  type ModelProvider,
  openaiProvider,
  type ScriptedTurn,
  scriptedProvider,
} from '@swarm/providers';
import type { ResolvedProvider } from './resolved.js';

export interface CreateProviderOptions {
  /** The agent's working directory (its worktree): where a command provider runs. */
  readonly cwd: string;
  /** Where API keys are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A command provider's whole-run limit in seconds (the agent's session_timeout). */
  readonly session_timeout?: number | null;
}

export function createModelProvider(provider: ResolvedProvider, options: CreateProviderOptions): ModelProvider {
  const common = {
    base_url: provider.base_url,
    api_key_env: provider.api_key_env,
    max_retries: provider.max_retries,
    timeout: provider.timeout,
    models: provider.models,
    ...(options.env ? { env: options.env } : {}),
  };
  switch (provider.type) {
    case 'anthropic':
      return anthropicProvider({ ...common, prompt_cache: provider.prompt_cache });
    case 'openai':
      return openaiProvider({
        ...common,
        native_tools: provider.native_tools,
        max_tokens_field: provider.max_tokens_field,
      });
    case 'command':
      return commandProvider({
        preset: provider.preset ?? 'jsonl',
        ...(provider.argv ? { argv: provider.argv } : {}),
        cwd: options.cwd,
        prompt_on_stdin: provider.prompt_on_stdin,
        timeout: options.session_timeout ?? null,
        models: provider.models,
      });
    case 'scripted':
      return scriptedProvider(provider.script as readonly ScriptedTurn[], { models: provider.models });
  }
}
