import { progress } from '../infra/local/progress';
import { getReminderSettings } from '../lib/config';
import type { Action, Attachment, Person } from '../lib/model/action';
import { newAction, producerActionId } from '../lib/model/edits';
import { settleReminders, windowAt } from '../lib/model/reminders';
import { type BulkWriteSummary, writeActionsInBulk } from '../lib/store/bulk/bulk-write';
import {
  world as buildWorld,
  EMPTY_LOCATION,
  pick,
  REFERENCE_DATE,
  random,
  uuidFrom,
  type World,
  weighted,
} from './world';

/**
 * Deterministic, realistic actions for the benchmark, the latency check and `npm run seed`,
 * written through the store's own bulk writer. The same seed and count always give the same
 * actions, and the first N actions of a larger run are the N actions of a smaller one.
 */

const DAY = 86_400_000;
export const REFERENCE_MS = Date.parse(REFERENCE_DATE);

/** An index into a list of `n`, skewed to the front: a few people and sites get most actions. */
const skewed = (next: () => number, n: number, power: number) => Math.min(n - 1, Math.floor(n * next() ** power));

const iso = (ms: number) => new Date(ms).toISOString();
/** Producers send due times to the second; the service keeps milliseconds. */
const toSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

const TAGS = ['safety', 'environment', 'quality', 'legal', 'housekeeping', 'ergonomics', 'electrical', 'mobile-plant'];

/** The status of an action of this age: old actions are mostly closed. 1 open, 2 in progress, 3 done, 4 cancelled, 5 on hold. */
function statusFor(next: () => number, dueMs: number): number {
  const overdueDays = (REFERENCE_MS - dueMs) / DAY;
  const weights = overdueDays > 30 ? [8, 6, 76, 8, 2] : overdueDays > 0 ? [30, 25, 37, 4, 4] : [50, 30, 12, 3, 5];
  return weighted(next, weights) + 1;
}

/**
 * The `index`-th action of the data set. Each action draws from its own PRNG stream, so an
 * action does not depend on how many were generated before it.
 */
export function actionAt(w: World, index: number, seed = 1): Action {
  const next = random(seed * 1_000_003 + index * 7_919 + 17);
  next();
  const site = w.sites[skewed(next, w.sites.length, 1.6)] ?? w.sites[0];
  const noLocation = next() < 0.02;
  const producer = w.producers[weighted(next, w.producerWeights)] ?? w.producers[0];
  const owner = w.people[skewed(next, w.people.length, 1.5)] as Person;
  const assignee = next() < 0.3 ? null : (w.people[skewed(next, w.people.length, 1.3)] as Person);

  // Created over the two years before the reference date, more of them recently (the table grows).
  const createdMs = REFERENCE_MS - Math.floor(730 * DAY * next() ** 1.4) - Math.floor(next() * DAY);
  const dueMs = toSecond(createdMs + DAY + Math.floor(next() * 90 * DAY));
  const edited = next() < 0.55;
  const updatedMs = edited ? Math.min(REFERENCE_MS, createdMs + Math.floor(next() * 60 * DAY)) : createdMs;

  const verb = pick(next, w.vocabulary.verbs);
  const object = pick(next, w.vocabulary.objects);
  const place = next() < 0.6 ? ` ${pick(next, w.vocabulary.places)}` : '';
  const title = `${verb} ${object}${place}`;
  const sentences = 1 + Math.floor(next() * 3);
  const first = Math.floor(next() * w.vocabulary.sentences.length);
  const description = Array.from({ length: sentences }, (_, i) =>
    (w.vocabulary.sentences[(first + i * 3) % w.vocabulary.sentences.length] as string)
      .replace('{object}', object)
      .replace('{site}', site?.name ?? 'the site'),
  ).join(' ');

  const attachments: Attachment[] =
    next() < 0.2
      ? [
          {
            url: `https://files.example.com/${uuidFrom(next)}.jpg`,
            name: 'photo.jpg',
            contentType: 'image/jpeg',
            size: 50_000 + Math.floor(next() * 2_000_000),
          },
        ]
      : [];
  const tags = Array.from({ length: skewed(next, 4, 2) }, () => pick(next, TAGS));
  const location =
    noLocation || !site
      ? EMPTY_LOCATION
      : {
          businessUnit: site.businessUnit,
          site: site.name,
          department: next() < 0.9 ? pick(next, site.departments) : '',
          workGroup: next() < 0.6 ? `WG-${1 + Math.floor(next() * 12)}` : '',
          productiveUnit: next() < 0.4 ? `PU-${1 + Math.floor(next() * 8)}` : '',
          team: next() < 0.5 ? pick(next, w.vocabulary.teams) : '',
          crew: next() < 0.3 ? `Crew ${'ABCD'[Math.floor(next() * 4)]}` : '',
        };

  const reference = producer?.prefix ? `${producer.prefix}-${String(index + 1).padStart(7, '0')}` : undefined;
  const id =
    reference && producer
      ? producerActionId(`${producer.prefix?.toLowerCase()}.example`, producer.name, reference)
      : uuidFrom(next);
  const action = newAction(
    id,
    {
      title,
      description,
      actionProducer: {
        name: producer?.name ?? 'Field App',
        ...(producer?.url ? { url: `${producer.url}/${reference ?? id}` } : {}),
        ...(reference ? { reference } : {}),
      },
      location,
      allowAnonymousEdits: next() < 0.05,
      dueAt: iso(dueMs),
      priority: weighted(next, [10, 45, 30, 12, 3]) + 1,
      status: statusFor(next, dueMs),
      attachments,
      tags: [...new Set(tags)],
      assignee,
    },
    owner,
    owner,
    iso(createdMs),
  );
  // The reminders as a sweep at the reference date left them: overdue if open and past due by then.
  const settled = { ...action, updatedAt: iso(updatedMs), version: edited ? 2 : 1 };
  const settings = getReminderSettings();
  const reminded = windowAt(settled.dueAt, REFERENCE_MS, settings);
  return settleReminders(undefined, { ...settled, reminded }, settings);
}

/** `count` actions, in order. */
export function* generateActions(count: number, seed = 1, w: World = buildWorld(seed)): Generator<Action> {
  for (let i = 0; i < count; i++) yield actionAt(w, i, seed);
}

/** The benchmark's steps show progress the way every long local command does (infra/local/progress.ts). */
export const progressBar = (label: string, total: number) => progress(label, 'done', total);

/** What a bulk write did, for the caller's report. */
export interface WriteSummary extends BulkWriteSummary {
  seconds: number;
}

/** Writes actions through the store's bulk writer (`lib/store/bulk/bulk-write`), with progress bars. */
export async function writeActions(actions: Iterable<Action>, total: number, label = 'writing'): Promise<WriteSummary> {
  const started = Date.now();
  const bar = progressBar(label, total);
  let counterBar: ReturnType<typeof progressBar> | undefined;
  const summary = await writeActionsInBulk(actions, {
    written: (n) => bar.tick(n),
    counting: (shards) => {
      bar.finish();
      counterBar = progressBar(`counting ${shards} counter shards`, shards);
    },
    counted: () => counterBar?.tick(),
  });
  counterBar?.finish();
  return { ...summary, seconds: (Date.now() - started) / 1000 };
}
