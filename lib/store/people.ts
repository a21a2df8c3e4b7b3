import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dayOf } from '../dates';
import type { Person } from '../model/action';
import { batchGet } from './batch';
import { canBeKey, sendConditional, tableName } from './client';
import type { Item } from './item';
import { accessKeys, attr } from './table';

/**
 * The people the service knows: everyone who has signed in, as their last token described them
 * (name, verified email, Cognito groups). A webhook fan-out or a notification decides what a
 * person may see without their token, from their remembered groups and their grants.
 */

export interface KnownPerson {
  id: string;
  name: string;
  /** Verified only, else null. */
  email: string | null;
  groups: string[];
  /** When they last signed in (epoch seconds): the token's `auth_time`, else its `iat`. */
  signedInAt: number;
  /** The UTC day they were last seen, `YYYY-MM-DD`. */
  seenOn: string;
}

const key = (id: string) => ({ [attr.id]: accessKeys.person(id), [attr.sortKey]: accessKeys.personItem });

/** What is remembered of a person, without the day: a change to any of it is written at once. */
const describe = (p: Pick<KnownPerson, 'name' | 'email' | 'groups' | 'signedInAt'>) =>
  JSON.stringify([p.name, p.email, p.groups, p.signedInAt]);

/** Per process: the day and description last written or read for each person, so a repeat costs nothing. */
const remembered = new Map<string, string>();
/** The memo forgets its oldest people past this many, so a long-lived process stays small. */
const MEMO_MAX = 10_000;

const utcDay = (now = Date.now()) => dayOf(now);

/**
 * Remembers the caller as their token describes them: at most one write per person per day,
 * unless their name, email, groups or sign-in time changed. One conditional write, no read: the
 * condition lets it through only when something differs; the memo saves even that. The write
 * sets only these attributes, so whatever else is kept on the person stays.
 */
export async function rememberCaller(caller: Person, groups: readonly string[], signedInAt: number): Promise<void> {
  if (!canBeKey(accessKeys.person(caller.id))) return;
  const seenOn = utcDay();
  const seen = { name: caller.name, email: caller.email, groups: [...new Set(groups)].sort(), signedInAt };
  const memo = `${seenOn}${describe(seen)}`;
  if (remembered.get(caller.id) === memo) return;
  await sendConditional(
    new UpdateCommand({
      TableName: tableName(),
      Key: key(caller.id),
      UpdateExpression: 'SET #name = :name, #email = :email, #groups = :groups, #at = :at, #day = :day',
      ConditionExpression:
        'attribute_not_exists(#day) OR #day <> :day OR #name <> :name OR #email <> :email OR #groups <> :groups OR #at <> :at',
      ExpressionAttributeNames: {
        '#name': 'name',
        '#email': 'email',
        '#groups': 'groups',
        '#at': 'signedInAt',
        '#day': 'seenOn',
      },
      ExpressionAttributeValues: {
        ':name': seen.name,
        ':email': seen.email,
        ':groups': seen.groups,
        ':at': signedInAt,
        ':day': seenOn,
      },
    }),
  );
  remembered.delete(caller.id);
  if (remembered.size >= MEMO_MAX) remembered.delete(remembered.keys().next().value as string);
  remembered.set(caller.id, memo);
}

function personFrom(item: Item): KnownPerson {
  const id = String(item[attr.id]).slice(accessKeys.person('').length);
  return {
    id,
    name: typeof item.name === 'string' ? item.name : id,
    email: typeof item.email === 'string' ? item.email : null,
    groups: Array.isArray(item.groups) ? item.groups.filter((g): g is string => typeof g === 'string') : [],
    signedInAt: Number(item.signedInAt ?? 0),
    seenOn: typeof item.seenOn === 'string' ? item.seenOn : '',
  };
}

/** The people among `ids` the service knows (an unknown id is simply absent), in one batch read. */
export async function knownPeople(ids: readonly string[]): Promise<Map<string, KnownPerson>> {
  const wanted = [...new Set(ids)].filter((id) => canBeKey(accessKeys.person(id)));
  const { items } = await batchGet(wanted.map(key));
  return new Map(items.map((item) => [personFrom(item).id, personFrom(item)]));
}
