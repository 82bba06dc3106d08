#!/usr/bin/env node
// A CLI that starts a grandchild, says so in colony's JSON-lines contract, then never ends.
// The grandchild's pid goes to $FAKE_PID_FILE so a test can prove the whole group died.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
writeFileSync(process.env.FAKE_PID_FILE, String(grandchild.pid));
process.on('SIGTERM', () => {}); // ignores SIGTERM: only SIGKILL ends it
process.stdout.write(`${JSON.stringify({ type: 'text', text: 'working' })}\n`);
setInterval(() => {}, 1000);
