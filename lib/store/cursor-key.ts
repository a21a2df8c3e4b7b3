import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useCursorKey } from '../cursor';
import { send, tableName } from './client';
import { attr, itemKind } from './table';

/**
 * The key cursors are signed with (lib/cursor.ts), shared by every function instance and known to
 * no client: 32 random bytes in one item of the table. The first instance to ask creates it; every
 * later one reads the same. One UpdateItem with `if_not_exists` does both at once (no race between
 * a read and a create, and it needs only the UpdateItem every authenticated route already has for
 * its quota), once per process: 1 write unit per cold start.
 */

const KEY_ITEM = { [attr.id]: 'k#cursor', [attr.sortKey]: itemKind.cursorKey };
const SECRET = 'secret';

let loading: Promise<void> | undefined;

/** Reads (or, the first time ever, creates) the cursor key and hands it to lib/cursor.ts; once per process. */
export function loadCursorKey(): Promise<void> {
  loading ??= readOrCreate().then(useCursorKey, (error: unknown) => {
    // A store fault (a 503) is not remembered: the next request tries again.
    loading = undefined;
    throw error;
  });
  return loading;
}

async function readOrCreate(): Promise<Buffer> {
  const reply = await send<{ Attributes?: Record<string, unknown> }>(
    new UpdateCommand({
      TableName: tableName(),
      Key: KEY_ITEM,
      UpdateExpression: 'SET #secret = if_not_exists(#secret, :fresh)',
      ExpressionAttributeNames: { '#secret': SECRET },
      ExpressionAttributeValues: { ':fresh': randomBytes(32).toString('base64') },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const key = Buffer.from(String(reply.Attributes?.[SECRET] ?? ''), 'base64');
  if (key.length !== 32) throw new Error('the cursor key item holds no 32-byte key');
  return key;
}
