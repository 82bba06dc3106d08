// What the two model-loop examples share: the team of agents they run, one after the
// other, over one colony (each agent is one conversation with the model), how a tool
// call from the model reaches colony, and the scripted model used when no API key is
// set (served by the local fake servers under test/support).

/** The agents, in the order they run: who they are and what they are asked to do. */
export const TEAM = [
  {
    agent: 'DataCollector',
    task:
      "Store today's metrics (users 1500, revenue 50000) under the key daily_metrics, readable only by DataAnalyst, " +
      'kept for a day. Tell DataAnalyst it is ready, asking for a read confirmation. Then announce to DataAnalyst and ' +
      'ReportGenerator, in a new thread, that the metrics are in.',
  },
  {
    agent: 'DataAnalyst',
    task:
      'Read your unread messages (marking them read), read the context they point to, then in one atomic batch store ' +
      'a summary under report_summary for ReportGenerator and read daily_metrics again. Answer with the user count.',
  },
  { agent: 'Intruder', task: 'Read the context key daily_metrics.' },
];

export const systemPrompt = (agent) =>
  `You are ${agent}, one agent of a team sharing a context mesh and messages through tools. Your agent name is ${agent}.`;

/**
 * Runs one tool call of the model through colony, as `agent`: the framework, not the
 * model, names the caller (`agent_name` or `from_agent`, whichever the tool's caller
 * argument is), so a model cannot act as another agent.
 */
export async function callAs(colony, agent, name, input) {
  const caller = colony.registry.get(name)?.callerArg;
  const args = { ...(input ?? {}), ...(caller ? { [caller]: agent } : {}) };
  const outcome = await colony.handleToolCall(name, args, { toolset: 'framework' });
  const status = outcome.ok ? 'ok' : (outcome.error.error_code ?? outcome.error.code);
  console.log(`[${agent}] ${name} -> ${status}: ${outcome.text.slice(0, 160)}`);
  return outcome;
}

const last = (toolResults, i = 0) => JSON.parse(toolResults[i]);

/** The scripted model for offline runs: what a model might answer, turn by turn. */
export const OFFLINE_SCRIPT = [
  {
    system: 'You are DataCollector',
    turns: [
      {
        text: 'Storing the metrics for DataAnalyst.',
        tool_calls: [
          {
            name: 'push_context',
            input: {
              agent_name: 'DataCollector',
              key: 'daily_metrics',
              value: { users: 1500, revenue: 50000 },
              subscribers: ['DataAnalyst'],
              ttl: 86400,
            },
          },
          {
            name: 'send_message_to_agent',
            input: {
              from_agent: 'DataCollector',
              to_agent: 'DataAnalyst',
              message: 'daily_metrics is ready for you',
              message_type: 'result',
              priority: 'high',
              requires_confirmation: true,
            },
          },
        ],
      },
      {
        tool_calls: [
          {
            name: 'broadcast_message_to_agents',
            input: {
              from_agent: 'DataCollector',
              to_agents: ['DataAnalyst', 'ReportGenerator'],
              message: "Today's metrics are in",
              message_type: 'info',
              create_thread: true,
            },
          },
        ],
      },
      { text: 'Stored daily_metrics for DataAnalyst, told them, and announced it in a new thread.' },
    ],
  },
  {
    system: 'You are DataAnalyst',
    turns: [
      {
        tool_calls: [
          {
            name: 'get_messages_from_agents',
            input: { agent_name: 'DataAnalyst', unread_only: true, mark_as_read: true },
          },
        ],
      },
      {
        tool_calls: [
          { name: 'list_context_keys', input: { agent_name: 'DataAnalyst', pattern: 'daily_*' } },
          { name: 'get_context', input: { agent_name: 'DataAnalyst', key: 'daily_metrics' } },
        ],
      },
      ({ toolResults }) => ({
        tool_calls: [
          {
            name: 'batch_context_operation',
            input: {
              agent_name: 'DataAnalyst',
              operations: [
                {
                  type: 'push',
                  key: 'report_summary',
                  value: { users: last(toolResults, 1).value.users, trend: 'up' },
                  subscribers: ['ReportGenerator'],
                },
                { type: 'get', key: 'daily_metrics' },
              ],
              atomic: true,
            },
          },
        ],
      }),
      ({ toolResults }) => ({ text: `Users today: ${last(toolResults).results[1].value.users}.` }),
    ],
  },
  {
    system: 'You are Intruder',
    turns: [
      { tool_calls: [{ name: 'get_context', input: { agent_name: 'Intruder', key: 'daily_metrics' } }] },
      ({ toolResults }) => ({ text: `Refused: ${last(toolResults).error_code}.` }),
    ],
  },
];
