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
