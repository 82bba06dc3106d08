#!/usr/bin/env node
// The `colony` command. A committed shim, so package managers can link the bin before
// the first build; the CLI itself is built into dist/.
import '../dist/cli.js';
