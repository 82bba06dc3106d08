// A racer for pg-store-race.test.ts: one OS process with its own PgStore (the BUILT
// @swarm/storage/pg) and a plain client for the start barrier. Commands on stdin, one
// JSON answer per line on stdout:
//   claim <trial> <subtaskId>  wait on the barrier (a shared advisory lock the test holds), then claim
//   posts <n>                  n posts, one write each
//   exit                       close everything and exit 0
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const { URL: url, SESSION: session, DIST, STORAGE, LOCK } = process.env;
const pg = createRequire(`${STORAGE}/package.json`)('pg');
const { openPgStore, pgQueries } = await import(DIST);
const store = await openPgStore(url, { maxClients: 1 });
const barrier = new pg.Client({ connectionString: url });
await barrier.connect();
const say = (answer) => process.stdout.write(`${JSON.stringify(answer)}\n`);

async function claim(trial, subtaskId) {
  await barrier.query('SELECT pg_advisory_lock_shared($1)', [LOCK]);
  await barrier.query('SELECT pg_advisory_unlock_shared($1)', [LOCK]);
  const claimer = { sessionId: session, agent: 'racer', observationId: 1 };
  const won = await store.write(() => pgQueries.claimSubtask(store, subtaskId, claimer, Date.now()));
  say({ trial, won });
}

async function posts(n) {
  for (let i = 0; i < n; i++) {
    const post = { sessionId: session, kind: 'post', content: `${session}#${i}`, ts: i, tokenCount: 1 };
    await store.write(() => pgQueries.insertObservation(store, post));
  }
  say({ posts: n });
}

say({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  const [command, a, b] = line.split(' ');
  try {
    if (command === 'claim') await claim(Number(a), Number(b));
    else if (command === 'posts') await posts(Number(a));
    else if (command === 'exit') break;
  } catch (error) {
    say({ trial: Number(a), error: `${error?.code ?? ''} ${error?.message ?? error}` });
  }
}
await store.close();
await barrier.end();
process.exit(0);
