import { describe, expect, it } from 'vitest';
import { type Clause, parseListQuery as parse } from '../../../../lib/filter/query';
import { EMPTY_KEY } from '../../../../lib/store/catalogue';
import { toItem } from '../../../../lib/store/item';
import { plan, type Sizes, sortBeatsWalk } from '../../../../lib/store/list/plan/plan';
import { attr } from '../../../../lib/store/table';
import { anAction } from '../../action-fixture';

/**
 * When a list whose count the counters gave (a scoped list's part) reads every match and sorts
 * it rather than walking an index in the list's order: whichever reads fewer bytes.
 */

const sizes: Sizes = {
  total: 10_000,
  values: {
    'location.site': { Cadia: 380 },
    'location.businessUnit': { Copper: 380 },
    status: { '1': 1527, '2': 1085, '5': 239 },
  },
};

describe('sortBeatsWalk', () => {
  it("sorts a business unit's open actions by due time: the walk of every action by due time finds few of them", () => {
    const chosen = plan(parse('location.businessUnit=Copper&status=~1,2,5&sort=dueAt'), sizes);
    expect(chosen.read.index.name).toBe('by-business-unit');
    expect(chosen.walk?.read.index.name).toBe('all-by-due');
    expect(chosen.walk?.entries).toBe(10_000);
    expect(sortBeatsWalk(chosen, 109, 11)).toBe(true);
  });

  it("walks a site's own partition by due time: a site's open actions by due date read about the page", () => {
    const chosen = plan(parse('location.site=Cadia&status=~1,2,5&sort=dueAt'), sizes);
    expect(chosen.walk?.read.index.name).toBe('by-site-by-due');
    expect(chosen.walk?.entries).toBe(380);
    expect(sortBeatsWalk(chosen, 109, 11)).toBe(false);
  });

  it('walks when the matches are so many that the page is found in a small part of the walk', () => {
    const chosen = plan(parse('status=~1,2,5&sort=dueAt'), sizes);
    expect(chosen.walk?.read.index.name).toBe('all-by-due');
    expect(sortBeatsWalk(chosen, 2851, 11)).toBe(false);
  });

  it("counts a round of the walk's partitions: 16 shards for a window of 3 of 300 matches read a fifteenth", () => {
    const chosen = plan(parse('location.businessUnit=Copper&status=~1,2,5&sort=dueAt'), sizes);
    // 380 entries of by-business-unit against 10,000 x (16 + 3) / 300 of all-by-due, both holding the `f` map.
    expect(sortBeatsWalk(chosen, 300, 3)).toBe(true);
    expect(sortBeatsWalk(chosen, 1_000, 3)).toBe(false);
  });

  it('walks the by-site partition in created order: the walk reads only the page of what a sort reads whole', () => {
    const chosen = plan(parse('location.site=Cadia&status=~1,2,5'), sizes);
    expect(chosen.walk?.read.index.name).toBe('by-site');
    expect(sortBeatsWalk(chosen, 109, 11)).toBe(false);
  });
});

describe('walks ranked by what they read for the page', () => {
  // Ten assignees of 100 actions each, and a status of 1,200: 1,000 entries against 1,200.
  const people = Array.from({ length: 10 }, (_, i) => `u-${i}`);
  const ranked: Sizes = {
    total: 10_000,
    values: { assignee: Object.fromEntries(people.map((p) => [p, 100])), status: { '2': 1200 } },
  };
  const query = parse(`assignee=~${people.join(',')}&status=2&limit=3`);

  it('without a count, the walk covering the fewest bytes: the ten assignees', () => {
    expect(plan(query, ranked).walk?.read.index.name).toBe('by-assignee');
  });

  it("with a count, the walk that reads the fewest for the page: one status partition, not a round of ten people's", () => {
    // 1,000 x (10 + 4) / 500 entries of by-assignee against 1,200 x (1 + 4) / 500 of by-status.
    expect(plan(query, ranked, 500).walk?.read.index.name).toBe('by-status');
    // Fewer matches than a round of partitions and the window: each walk reads all it covers.
    expect(plan(query, ranked, 5).walk?.read.index.name).toBe('by-assignee');
  });
});

describe('the empty site and business unit', () => {
  it('read their own partition, kept under a stand-in no location value can be', () => {
    const chosen = plan(parse('location.site=&sort=dueAt'), sizes);
    expect(chosen.walk?.read.index.name).toBe('by-site-by-due');
    expect(chosen.walk?.read.partitions).toEqual([EMPTY_KEY]);
    const unit = plan(parse('location.businessUnit=~,Copper'), sizes);
    expect(unit.read.index.name).toBe('by-business-unit');
    expect(unit.read.partitions).toEqual([EMPTY_KEY, 'Copper']);
  });

  it('are keyed under the stand-in in the item, and a filter naming the stand-in itself never reads it', () => {
    const item = toItem(anAction({ location: { ...anAction().location, site: '', businessUnit: '' } }));
    expect(item[attr.siteKey]).toBe(EMPTY_KEY);
    expect(item[attr.businessUnitKey]).toBe(EMPTY_KEY);
    const chosen = plan(
      {
        ...parse('location.site=x'),
        filters: [{ ...parse('location.site=x').filters[0], values: [EMPTY_KEY] } as Clause],
      },
      sizes,
    );
    expect(chosen.read.index.name).not.toBe('by-site');
    expect(chosen.walk?.read.index.name).not.toBe('by-site');
  });
});

describe('one title, counted', () => {
  const titled: Sizes = { total: 10_000_000, values: { title: { 'belt guard': 42 } } };

  it('reads its key range of all-by-title, sized by its counter: an exact figure, not a guessed share of the table', () => {
    const chosen = plan(parse('title=Belt%20Guard'), titled);
    expect(chosen.read.index.name).toBe('all-by-title');
    expect(chosen.entries).toBe(42);
    expect(chosen.exact).toBe(true);
  });

  it('a title the counters were not asked about is still a guess', () => {
    const chosen = plan(parse('title=Conveyor'), titled);
    expect(chosen.read.index.name).toBe('all-by-title');
    expect(chosen.exact).toBe(false);
  });
});
