/**
 * `colony docs mcp`: renders the MCP tool reference (docs/mcp.md) from the tool
 * registry. It opens colony on a throwaway in-memory store with default settings, so
 * it needs no database and reads nothing from the data home.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { defaultSettings, openColony } from '@swarm/core';
import { renderToolDocs } from '@swarm/tools';
import { defineCommand } from 'citty';
import { usageError } from '../../_args';
import { printLines } from '../../_output';
import { MCP_DOCS_PREAMBLE } from '../_mcp-docs-preamble';

export default defineCommand({
  meta: { name: 'mcp', description: 'Print the MCP tool reference as Markdown, or write it with --write.' },
  args: {
    write: {
      type: 'string',
      description: 'Write to this file instead of stdout (e.g. docs/mcp.md)',
      valueHint: 'path',
    },
  },
  async run({ args }) {
    if (args.write === '') throw usageError('--write needs a path');
    const colony = openColony({ dbPath: ':memory:', settings: defaultSettings(), receipts: false });
    let markdown: string;
    let count: number;
    try {
      const tools = [
        ...colony.registry.list('all'),
        ...colony.registry.list('framework'),
        ...colony.registry.list('runtime'),
      ];
      count = tools.length;
      markdown = renderToolDocs(tools, { preamble: MCP_DOCS_PREAMBLE });
    } finally {
      await colony.close();
    }
    if (!args.write) return void process.stdout.write(markdown);
    const path = resolve(args.write);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, markdown);
    printLines([`wrote ${args.write} (${count} tools)`]);
  },
});
