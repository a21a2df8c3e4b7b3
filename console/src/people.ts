/**
 * The API's stand-in for "nobody": an unassigned action's assignee has the id `'undefined'`
 * (contract section 3). Tested here once, so no screen compares ids with the string itself.
 */
const NOBODY = 'undefined';

interface PersonRef {
  id: string;
  name: string;
}

/** Whether a person field names someone. */
export const isSomeone = (person: { id?: string } | undefined | null): person is PersonRef =>
  !!person?.id && person.id !== NOBODY;

/** A person field in words: their name, or `nobody` for the stand-in. */
export const nameOf = (person: PersonRef | undefined | null, nobody = 'nobody'): string =>
  isSomeone(person) ? person.name : nobody;

/** A person the service knows (People and access offers them): their id, name and, where known, email. */
export interface KnownPerson {
  id: string;
  name: string;
  email?: string;
}

/** People by id, once each, the fullest record kept (one with an email over one without), sorted by name. Pure. */
export function knownPeople(people: KnownPerson[]): KnownPerson[] {
  const byId = new Map<string, KnownPerson>();
  for (const person of people) {
    if (!isSomeone(person)) continue;
    const known = byId.get(person.id);
    byId.set(person.id, {
      id: person.id,
      name: known?.name && known.name !== known.id ? known.name : person.name || person.id,
      ...((known?.email ?? person.email) ? { email: known?.email ?? person.email } : {}),
    });
  }
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** A person as the picker shows them: "Ann Lee · ann@example.com". */
export const personInWords = (person: KnownPerson) =>
  [person.name, person.email || (person.name === person.id ? '' : person.id)].filter(Boolean).join(' · ');
