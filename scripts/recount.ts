import { resolve } from 'node:path';
import { commandLine } from '../infra/command-line';
import { progress } from '../infra/local/progress';
import { localEnvironment, runningStack } from '../infra/local/stack';
import { counterOf } from '../lib/store/counters/counters';
import { recount } from '../lib/store/counters/recount';

/**
 * `npm run recount [-- --fix]`: recomputes every counter from the actions of the stack running
 * on $DATA_DIR and reports any drift; with `--fix`, repairs it. Exits 1 when it found drift it
 * did not repair.
 */

const usage = `usage: npm run recount [-- --fix]

Recomputes every list counter (the total and one per value of owner, assignee, status,
priority, site, business unit and producer) from the actions of the stack that \`npm start\`
runs on DATA_DIR (default .data), and reports any counter that differs; proves the search
postings the same way (each action's are what its title and reference make, none without
its action). On a terminal it
prints its progress every few seconds.
  --fix    repair the counters and postings that differ
  --help   this text`;

const { values: args } = commandLine(usage, { fix: { type: 'boolean', default: false } });

const dataDir = resolve(process.env.DATA_DIR || '.data');
const running = await runningStack(dataDir);
if (!running) {
  console.error(
    `No stack runs on DATA_DIR=${dataDir}: start one with \`npm start\` (or point DATA_DIR at the one that runs).`,
  );
  process.exit(2);
}
Object.assign(process.env, localEnvironment(dataDir, running.storeEndpoint), { LOG_LEVEL: 'silent' });

// The table holds more than actions (history, comments, counters), so no total: items and rate.
const scanned = progress('recount', 'items scanned');
const report = await recount({ fix: Boolean(args.fix), onScanned: (items) => scanned.tick(items) });
scanned.finish();
for (const d of report.drift)
  console.log(
    `${d.attribute === undefined ? d.counter : counterOf({ key: d.counter, attribute: d.attribute })}${d.status === undefined ? '' : ` (status ${d.status})`}: counter says ${d.stored}, the actions say ${d.actual}`,
  );
const { postings } = report;
const postingDrift = postings.actions.length + postings.orphans.length;
for (const key of postings.actions) console.log(`search postings of ${key} differ from what its texts make`);
for (const key of postings.orphans) console.log(`search postings of ${key} have no action`);
console.log(
  postingDrift === 0
    ? 'every action has exactly the search postings its texts make'
    : `${postingDrift} actions' search postings drifted${report.fixed ? ', repaired' : ' (run with --fix to repair)'}`,
);
console.log(
  `${report.actions} actions, ${report.counters} counter values: ${
    report.drift.length === 0
      ? 'every counter equals its count'
      : `${report.drift.length} counters drifted${report.fixed ? ', repaired' : ' (run with --fix to repair)'}`
  }`,
);
console.log(
  report.unregistered === 0
    ? 'every value an action has is in the value registry'
    : `${report.unregistered} values missing from the value registry${report.fixed ? ', registered' : ' (run with --fix to register them)'}`,
);
if (report.unsettled)
  console.log(
    'The store changed under each of three scans: what differed may be writes under way, so nothing was repaired. Run it again when the store is quiet.',
  );
process.exit(report.drift.length + postingDrift + report.unregistered > 0 && !report.fixed ? 1 : 0);
