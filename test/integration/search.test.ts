import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { localEnvironment } from '../../infra/local/stack';
import { postingsTableName, send } from '../../lib/store/client';
import { readRegistry } from '../../lib/store/registry';
import { actionBody, call, create, dataDir, list, newUser, q, uniqueProducer } from '../support/client';
import { marked, untilIndexed } from '../support/indexed';

/**
 * Issue 31 item 3, contract section 4 ("Search finds the needle", "Search is as fresh as the
 * list"): `*` of 3 or more characters on `title` and `actionProducer.reference` is answered from
 * the n-gram postings, which the stream writes after each change; a just-created, just-edited or
 * just-deleted action is found (or not) at once, through its pending mark, and still after the
 * stream has indexed it and removed the mark. Every test searches for words of its own, so the
 * other tests' actions never match.
 */

const user = newUser('Sam Searcher');
/** A word no other action holds: letters only (the id's digits become letters past `f`). */
const word = () =>
  `zq${randomUUID()
    .replace(/-/g, '')
    .slice(0, 10)
    .replace(/[0-9]/g, (d) => String.fromCharCode(103 + Number(d)))}x`;
const search = (field: string, fragment: string, extra = '') =>
  list(user.token, `${q(field, `*${fragment}`)}${extra ? `&${extra}` : ''}`);
const patch = (id: string, body: unknown) => call('PATCH', `/api/actions/${id}`, { token: user.token, body });

beforeAll(() => {
  Object.assign(process.env, localEnvironment(dataDir(), inject('storeEndpoint')), { LOG_LEVEL: 'silent' });
});

/** Waits until the stream has indexed every change of these actions. */
const indexed = (...ids: string[]) => untilIndexed(ids, 15_000);

/**
 * The postings of a gram that belong to action `id` (what the stream wrote). Only its own: a
 * gram is three characters, and the shared store holds thousands of other tests' random words,
 * which share many of them.
 */
async function postingIds(field: 't' | 'r', gram: string, id: string): Promise<string[]> {
  const page = await send<{ Items?: Array<{ sk: string }> }>(
    new QueryCommand({
      TableName: postingsTableName(),
      KeyConditionExpression: 'id = :p',
      ExpressionAttributeValues: { ':p': `g#${field}#${gram}` },
    }),
  );
  return (page.Items ?? []).map((i) => i.sk.slice(i.sk.lastIndexOf('#') + 1)).filter((owner) => owner === id);
}

describe('search finds the needle', () => {
  it('finds an action by a fragment of its title, any case, with an exact count, before and after the stream indexes it', async () => {
    const needle = word();
    const id = await create(
      user.token,
      actionBody(uniqueProducer('s'), { title: `Inspect ${needle.toUpperCase()} valve` }),
    );
    // At once: the stream may not have written a single posting yet.
    const fresh = await search('title', needle);
    expect(fresh.actions.map((a: { id: string }) => a.id)).toEqual([id]);
    expect(fresh).toMatchObject({ totalCount: 1, totalCountRelation: 'eq' });

    await indexed(id);
    expect(await postingIds('t', needle.slice(4, 7), id)).toEqual([id]);
    const later = await search('title', `${needle.slice(2, 7)}`);
    expect(later.actions.map((a: { id: string }) => a.id)).toEqual([id]);
    expect(later).toMatchObject({ totalCount: 1, totalCountRelation: 'eq' });
    // The whole fragment must match, not just its grams: the grams of `<needle> valve` in another order.
    expect((await search('title', `valve ${needle}`)).totalCount).toBe(0);
  });

  it('finds an action by a fragment of its producer reference', async () => {
    const needle = word();
    const id = await create(
      user.token,
      actionBody(uniqueProducer('r'), { actionProducer: { name: uniqueProducer('p'), reference: `INC-${needle}-7` } }),
    );
    const page = await search('actionProducer.reference', `${needle.slice(1)}-7`);
    expect(page.actions.map((a: { id: string }) => a.id)).toEqual([id]);
    await indexed(id);
    expect((await search('actionProducer.reference', `c-${needle}`)).totalCount).toBe(1);
    // A title search does not see the reference.
    expect((await search('title', needle)).totalCount).toBe(0);
  });

  it('compares as the service does: NFC both sides, then case (title=*café finds Cafe\\u0301)', async () => {
    const tag = word();
    const decomposed = await create(user.token, actionBody(uniqueProducer('n'), { title: `Cafe\u0301 ${tag}` }));
    const composed = await create(user.token, actionBody(uniqueProducer('n'), { title: `CAFÉ ${tag}` }));
    for (const round of ['fresh', 'indexed']) {
      if (round === 'indexed') await indexed(decomposed, composed);
      for (const fragment of [`café ${tag}`, `Cafe\u0301 ${tag}`, `AFÉ ${tag.toUpperCase()}`]) {
        const page = await search('title', fragment);
        expect(new Set(page.actions.map((a: { id: string }) => a.id)), `${round}: ${fragment}`).toEqual(
          new Set([decomposed, composed]),
        );
      }
      // `cafe` is not a substring of `café` once both are NFC.
      expect((await search('title', `cafe ${tag}`)).totalCount, round).toBe(0);
    }
  });

  it('finds one needle among many that share its other grams, newest first with other filters verified', async () => {
    const common = word();
    const producer = uniqueProducer('many');
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) {
      ids.push(
        await create(
          user.token,
          actionBody(producer, { title: `Check ${common} pump ${i}`, status: i % 2 === 0 ? '1' : '2' }),
        ),
      );
    }
    const needle = await create(user.token, actionBody(producer, { title: `Check ${common} pump qzv` }));
    await indexed(...ids, needle);
    const found = await search('title', `${common} pump qzv`);
    expect(found.actions.map((a: { id: string }) => a.id)).toEqual([needle]);
    expect(found).toMatchObject({ totalCount: 1, totalCountRelation: 'eq' });

    // The common word: a page in creation order, newest first, as the unfiltered list orders them.
    const everyone = [...ids, needle].reverse();
    const first = await search('title', common, 'limit=5');
    expect(first.actions.map((a: { id: string }) => a.id)).toEqual(everyone.slice(0, 5));
    expect(first).toMatchObject({ totalCount: 25, totalCountRelation: 'eq' });
    const byProducer = await list(user.token, `${q('actionProducer.name', producer)}&limit=5`);
    expect(byProducer.actions.map((a: { id: string }) => a.id)).toEqual(everyone.slice(0, 5));

    // Cursors walk every match once, in order.
    const walked: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(
        user.token,
        cursor ? `cursor=${encodeURIComponent(cursor)}&limit=7` : `${q('title', `*${common}`)}&limit=7`,
      );
      walked.push(...page.actions.map((a: { id: string }) => a.id));
      cursor = (page as { nextCursor?: string }).nextCursor;
    } while (cursor);
    expect(walked).toEqual(everyone);

    // Oldest first, and another filter verified on the candidates.
    const oldest = await search('title', common, 'sort=createdAt&limit=3');
    expect(oldest.actions.map((a: { id: string }) => a.id)).toEqual(ids.slice(0, 3));
    const open = await search('title', common, 'status=2');
    expect(open.actions.map((a: { id: string }) => a.id)).toEqual(
      everyone.filter((id) => ids.indexOf(id) % 2 === 1).slice(0, 10),
    );
    expect(open).toMatchObject({ totalCount: 12, totalCountRelation: 'eq' });
    expect((await search('title', common, 'limit=0')).totalCount).toBe(25);
  });
});

describe('search is as fresh as the list', () => {
  it('a just-created action is found by a fragment as soon as its producer filter finds it', async () => {
    for (let i = 0; i < 5; i++) {
      const needle = word();
      const producer = uniqueProducer('fresh');
      const id = await create(user.token, actionBody(producer, { title: `Fresh ${needle}` }));
      const [byProducer, byFragment] = await Promise.all([
        list(user.token, q('actionProducer.name', producer)),
        search('title', needle.slice(1)),
      ]);
      expect(byProducer.actions.map((a: { id: string }) => a.id)).toEqual([id]);
      expect(byFragment.actions.map((a: { id: string }) => a.id)).toEqual([id]);
    }
  });

  it('a title edit: the old fragment stops matching and the new one matches at once, and after the stream', async () => {
    const before = word();
    const after = word();
    const id = await create(user.token, actionBody(uniqueProducer('edit'), { title: `Old ${before}` }));
    await indexed(id);
    const edited = await patch(id, { title: `New ${after}` });
    expect(edited.status).toBe(200);
    for (const round of ['at once', 'indexed']) {
      if (round === 'indexed') await indexed(id);
      expect((await search('title', before)).totalCount, round).toBe(0);
      expect(
        (await search('title', after)).actions.map((a: { id: string }) => a.id),
        round,
      ).toEqual([id]);
    }
    // The grams it no longer has lost their postings.
    expect(await postingIds('t', before.slice(4, 7), id)).toEqual([]);
    expect(await postingIds('t', after.slice(4, 7), id)).toEqual([id]);

    // An edit of anything else leaves search as it was (and writes no mark).
    expect((await patch(id, { status: '2' })).status).toBe(200);
    expect(await marked(id)).toBe(false);
    expect((await search('title', after)).totalCount).toBe(1);
  });

  it('a deleted action is not found, at once and after the stream removed its postings', async () => {
    const needle = word();
    const id = await create(user.token, actionBody(uniqueProducer('del'), { title: `Gone ${needle}` }));
    await indexed(id);
    expect((await call('DELETE', `/api/actions/${id}`, { token: user.token })).status).toBe(204);
    expect((await search('title', needle)).totalCount).toBe(0);
    await indexed(id);
    expect((await search('title', needle)).totalCount).toBe(0);
    expect(await postingIds('t', needle.slice(4, 7), id)).toEqual([]);
  });

  it('one or two characters go to the planner, and still answer', async () => {
    const producer = uniqueProducer('short');
    const id = await create(user.token, actionBody(producer, { title: 'Qz pump' }));
    const page = await list(user.token, `${q('title', '*qz')}&${q('actionProducer.name', producer)}`);
    expect(page.actions.map((a: { id: string }) => a.id)).toEqual([id]);
  });
});

describe('the stream registers the values beside the postings (lib/store/registry.ts)', () => {
  it("a create's site and producer, and an edit's new site, are in the registry once the stream has indexed them", async () => {
    const [site, moved, producer] = [word(), word(), uniqueProducer('registry')];
    const id = await create(user.token, actionBody(producer, { location: { site } }));
    await indexed(id);
    expect(await readRegistry('location.site')).toContain(site);
    expect(await readRegistry('actionProducer.name')).toContain(producer);
    expect((await patch(id, { location: { site: moved } })).status).toBe(200);
    await indexed(id);
    // The stream delivers the edit's entry soon after; the registry keeps both values, in order.
    for (let n = 0; n < 50 && !(await readRegistry('location.site')).includes(moved); n++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const sites = await readRegistry('location.site');
    expect(sites).toContain(moved);
    expect(sites).toContain(site);
    expect([...sites].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(sites);
  });
});
