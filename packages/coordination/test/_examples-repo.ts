/**
 * Test repositories with an examples/ folder: one example per manifest kind (npm,
 * pypi, cargo, go, none), written as real files, plus the target package.json an
 * integrate plan is computed against. Shared by the service, MCP and CLI tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Writes `files` (path -> content) under `root`. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export const STRIPE_PACKAGE = {
  name: 'stripe-webhook',
  version: '1.0.0',
  main: 'src/index.ts',
  scripts: { build: 'tsc -p .', test: 'vitest run', start: 'node dist/index.js' },
  dependencies: { stripe: '^14.0.0', express: '^4.19.0', zod: '^3.23.0' },
  devDependencies: { typescript: '^5.4.0', vitest: '^1.6.0' },
};

export const EXAMPLE_FILES: Record<string, string | Buffer> = {
  '.gitignore': 'examples/*/secret.txt\n',
  'examples/stripe-webhook/package.json': JSON.stringify(STRIPE_PACKAGE, null, 2),
  'examples/stripe-webhook/README.md':
    '# Stripe webhook\n\nVerifies the webhook signature with stripe.webhooks.constructEvent and handles checkout events.\n',
  'examples/stripe-webhook/src/index.ts':
    "import Stripe from 'stripe';\n// Verify the webhook signature before trusting the event.\nexport function handle(body: string, signature: string) {\n  return new Stripe('sk').webhooks.constructEvent(body, signature, 'whsec');\n}\n",
  'examples/stripe-webhook/src/events.ts': 'export const EVENTS = ["checkout.session.completed"];\n',
  'examples/stripe-webhook/src/index.test.ts': 'test("x", () => {});\n',
  'examples/stripe-webhook/.env.example': 'STRIPE_SECRET=\n',
  'examples/stripe-webhook/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]),
  'examples/stripe-webhook/secret.txt': 'ignored by .gitignore\n',
  'examples/stripe-webhook/node_modules/stripe/package.json': '{"name":"stripe"}',
  'examples/flask-app/pyproject.toml':
    '[project]\nname = "flask-app"\nversion = "0.2.0"\ndependencies = ["flask>=3.0", "requests[socks]==2.32.0 ; python_version > \'3.8\'"]\n\n[project.scripts]\nserve = "app:main"\n',
  'examples/flask-app/requirements.txt': '# pinned\ngunicorn==22.0.0\n-r other.txt\n',
  'examples/flask-app/app.py': 'from flask import Flask\napp = Flask(__name__)\n\ndef main():\n    app.run()\n',
  'examples/rust-cli/Cargo.toml':
    '[package]\nname = "rust-cli"\nversion = "0.1.0"\n\n[dependencies]\nclap = { version = "4.5", features = ["derive"] }\nserde = "1.0"\nlocal = { path = "../local" }\n\n[dev-dependencies]\ninsta = "1.39"\n',
  'examples/rust-cli/src/main.rs': 'use clap::Parser;\nfn main() { println!("hello"); }\n',
  'examples/go-server/go.mod':
    'module example.com/go-server\n\ngo 1.22\n\nrequire (\n\tgithub.com/go-chi/chi/v5 v5.0.12 // router\n\tgolang.org/x/sync v0.7.0\n)\n\nrequire github.com/google/uuid v1.6.0\n',
  'examples/go-server/cmd/server/main.go':
    'package main\n\nimport "github.com/go-chi/chi/v5"\n\nfunc main() { _ = chi.NewRouter() }\n',
  'examples/plain-notes/NOTES.txt': 'Just some notes about a shell script trick.\n',
  'examples/plain-notes/run.sh': '#!/bin/sh\necho trick\n',
  'examples/.hidden-file': 'not a folder',
  'package.json': JSON.stringify({
    name: 'target',
    dependencies: { express: '^4.18.0', lodash: '^4.17.21' },
    devDependencies: { typescript: '^5.4.0' },
  }),
  'apps/api/package.json': JSON.stringify({ name: 'api', dependencies: { stripe: '^14.0.0' } }),
};

/** Creates a repository folder `<parent>/<name>` holding EXAMPLE_FILES; returns its path. */
export function exampleRepo(parent: string, name = 'repo'): string {
  const root = join(parent, name);
  writeTree(root, EXAMPLE_FILES);
  return root;
}
