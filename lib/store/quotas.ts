import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AGAIN, retry } from '../flow/retry';
import { send, sendIf, tableName } from './client';
import { attr, itemKind } from './table';

/**
 * Per-caller quota windows, in the table so every function instance shares them: one item per
 * caller and fixed window (`id` = `q#<sub>#<window start, epoch seconds>`), holding the requests
 * made and the index entries read in it. Each request costs one conditional update (1 write
 * unit, refused or not: a refused update writes nothing); a list that read entries costs one
 * more. The item expires through the table's TTL a window after its own ends.
 */

export interface WindowUse {
  requests: number;
  reads: number;
  /** Write units the bookkeeping consumed. */
  writeUnits: number;
}

export interface QuotaLimits {
  requests: number;
  reads: number;
}

const keyOf = (caller: string, windowStart: number) => ({
  [attr.id]: `q#${caller}#${windowStart}`,
  [attr.sortKey]: itemKind.quota,
});

interface UpdateReply {
  Attributes?: Record<string, unknown>;
  ConsumedCapacity?: { CapacityUnits?: number };
}

const use = (item: Record<string, unknown> | undefined, writeUnits: number): WindowUse => ({
  requests: Number(item?.[attr.quotaRequests] ?? 0),
  reads: Number(item?.[attr.quotaReads] ?? 0),
  writeUnits,
});

/**
 * Counts one request in the caller's window unless either quota is already used up: `admitted`
 * with the use after it, or not, with the use as it stands (nothing written). `reserveReads`
 * index entries are charged in the same update (a list's allowance, settled after it read).
 */
export async function admitRequest(
  caller: string,
  windowStart: number,
  windowSeconds: number,
  quota: QuotaLimits,
  reserveReads = 0,
): Promise<{ admitted: boolean; use: WindowUse }> {
  const reply = await sendIf<UpdateReply>(
    new UpdateCommand({
      TableName: tableName(),
      Key: keyOf(caller, windowStart),
      UpdateExpression: `ADD #r :one${reserveReads > 0 ? ', #e :reserve' : ''} SET #ttl = if_not_exists(#ttl, :ttl)`,
      ConditionExpression: '(attribute_not_exists(#r) OR #r < :maxR) AND (attribute_not_exists(#e) OR #e < :maxE)',
      ExpressionAttributeNames: { '#r': attr.quotaRequests, '#e': attr.quotaReads, '#ttl': attr.expiresAt },
      ExpressionAttributeValues: {
        ':one': 1,
        ':ttl': windowStart + 2 * windowSeconds,
        ':maxR': quota.requests,
        ':maxE': quota.reads,
        ...(reserveReads > 0 ? { ':reserve': reserveReads } : {}),
      },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  if (reply.written) {
    return { admitted: true, use: use(reply.output.Attributes, reply.output.ConsumedCapacity?.CapacityUnits ?? 0) };
  }
  // A failed condition also costs a write unit.
  return { admitted: false, use: use(reply.item, 1) };
}

/**
 * The update that adds `entries` to the caller's window's reads; with `room`, only while the reads
 * stand at or below it (so the addition never passes the quota).
 */
const addReads = (caller: string, windowStart: number, windowSeconds: number, entries: number, room?: number) =>
  new UpdateCommand({
    TableName: tableName(),
    Key: keyOf(caller, windowStart),
    UpdateExpression: 'ADD #e :n SET #ttl = if_not_exists(#ttl, :ttl)',
    ...(room === undefined ? {} : { ConditionExpression: 'attribute_not_exists(#e) OR #e <= :room' }),
    ExpressionAttributeNames: { '#e': attr.quotaReads, '#ttl': attr.expiresAt },
    ExpressionAttributeValues: {
      ':n': entries,
      ':ttl': windowStart + 2 * windowSeconds,
      ...(room === undefined ? {} : { ':room': room }),
    },
    ReturnValues: 'ALL_NEW',
    ...(room === undefined ? {} : { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const }),
    ReturnConsumedCapacity: 'TOTAL',
  });

/** Adds index entries to the caller's window: a negative count gives back what a reservation did not use. */
export async function chargeReads(
  caller: string,
  windowStart: number,
  windowSeconds: number,
  entries: number,
): Promise<WindowUse> {
  const reply = await send<UpdateReply>(addReads(caller, windowStart, windowSeconds, entries));
  return use(reply.Attributes, reply.ConsumedCapacity?.CapacityUnits ?? 0);
}

/**
 * Reserves up to `want` more index entries of the caller's read quota, never past `quota`: the
 * whole of `want` when it fits, else what is left (read from the refused update and asked again).
 * Answers how many were reserved (0 when nothing is left) and the use after.
 */
export async function reserveReads(
  caller: string,
  windowStart: number,
  windowSeconds: number,
  quota: number,
  want: number,
): Promise<{ reserved: number; use: WindowUse }> {
  let ask = want;
  let writeUnits = 0;
  let last: Record<string, unknown> | undefined;
  const none = () => ({ reserved: 0, use: use(last, writeUnits) });
  if (ask <= 0) return none();
  return retry(
    async () => {
      const reply = await sendIf<UpdateReply>(addReads(caller, windowStart, windowSeconds, ask, quota - ask));
      if (reply.written) {
        writeUnits += reply.output.ConsumedCapacity?.CapacityUnits ?? 0;
        return { reserved: ask, use: use(reply.output.Attributes, writeUnits) };
      }
      writeUnits += 1;
      last = reply.item;
      // Others reserved first: ask for what they left.
      ask = Math.min(ask, quota - use(last, 0).reads);
      return ask > 0 ? AGAIN : none();
    },
    { attempts: 3, exhausted: none },
  );
}
