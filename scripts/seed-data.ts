import { generateActions } from '../bench/generate';
import { REFERENCE_DATE } from '../bench/world';
import type { Action, Person } from '../lib/model/action';

/**
 * The actions `npm run seed` writes: the benchmark's realistic, deterministic actions, made to
 * fit the docs a newcomer reads next to them (README.md, docs/api.md): dates around today (shifted by whole days from
 * the benchmark's reference date), people with readable ids (`u-ann` is Ann Lee), the docs'
 * sites (North Pit, South Pit) and crews (A, B, C, and one called "A,B"), and an action titled
 * `!urgent`. The same count, seed and day always give the same actions.
 */

const DAY = 24 * 3600 * 1000;
const README_SITES = ['North Pit', 'South Pit'];
const README_CREWS = ['A', 'B', 'C', 'A,B'];

export function* seedActions(count: number, seed: number, today: Date = new Date()): Generator<Action> {
  const shift = Math.floor((today.getTime() - Date.parse(REFERENCE_DATE)) / DAY) * DAY;
  const at = (iso: string) => (iso ? new Date(Date.parse(iso) + shift).toISOString() : iso);
  const people = new Map<string, Person>();
  const taken = new Set<string>();
  const person = (p: Person): Person => {
    let named = people.get(p.id);
    if (!named) {
      const first = people.size === 0 ? 'Ann' : (p.name.split(' ')[0] ?? 'user');
      const base = `u-${first.toLowerCase().replace(/[^a-z]/g, '')}`;
      let id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
      taken.add(id);
      const name = people.size === 0 ? 'Ann Lee' : p.name;
      named = { id, name, email: `${id.slice(2)}@example.com` };
      people.set(p.id, named);
    }
    return named;
  };
  const sites = new Map<string, string>();
  let index = 0;
  for (const action of generateActions(count, seed)) {
    const site = action.location.site;
    if (site && !sites.has(site)) sites.set(site, README_SITES[sites.size] ?? site);
    yield {
      ...action,
      title: index % 500 === 7 ? '!urgent' : action.title,
      dueAt: at(action.dueAt),
      createdAt: at(action.createdAt),
      updatedAt: at(action.updatedAt),
      owner: person(action.owner),
      initiator: person(action.initiator),
      assignee: action.assignee ? person(action.assignee) : null,
      location: {
        ...action.location,
        site: site ? (sites.get(site) as string) : site,
        crew: action.location.crew ? (README_CREWS[index % README_CREWS.length] as string) : '',
      },
    };
    index++;
  }
}
