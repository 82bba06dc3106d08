/**
 * @swarm/providers/testing: the test doubles other packages reuse (the whole public API
 * of this entry). Local servers on 127.0.0.1 speaking the real wire protocols.
 */

// Helpers
export { until } from './_http.js';
// Anthropic Messages API
export {
  type FakeAnthropic,
  type FakeAnthropicOptions,
  type FakeAnthropicReply,
  type FakeToolUse,
  type FakeUsage,
  type RecordedRequest,
  startFakeAnthropic,
} from './fake-anthropic.js';
// OpenAI Chat Completions
export { type FakeOpenAI, type FakeOpenAIReply, startFakeOpenAI } from './fake-openai.js';
