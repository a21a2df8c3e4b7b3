import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { send, tableName } from '../../lib/store/client';
import { pendingPartition, pendingPartitions } from '../../lib/store/search/keys';

/** Whether the action's pending mark is still there (the stream has not indexed its last change). */
export async function marked(id: string): Promise<boolean> {
  const got = await send<{ Item?: unknown }>(
    new GetCommand({ TableName: tableName(), Key: { id: pendingPartition(id), sk: id }, ConsistentRead: true }),
  );
  return got.Item !== undefined;
}

/** Until the stream has indexed every change of these actions, within `timeoutMs` in all. */
export async function untilIndexed(ids: readonly string[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const id of ids) {
    while (await marked(id)) {
      if (Date.now() > deadline) throw new Error(`the stream did not index ${id} within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Until the stream has indexed every write of the table in this process's environment: no
 * pending search mark left. A recount scans for drift, and a store whose stream is still
 * writing postings is a store that changes under it (recount then repairs nothing).
 */
export async function untilAllIndexed(timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let marks = 0;
    for (const partition of pendingPartitions) {
      const page = await send<{ Count?: number }>(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'id = :p',
          ExpressionAttributeValues: { ':p': partition },
          ConsistentRead: true,
          Select: 'COUNT',
        }),
      );
      marks += page.Count ?? 0;
    }
    if (marks === 0) return;
    if (Date.now() > deadline) throw new Error(`the stream left ${marks} writes unindexed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
