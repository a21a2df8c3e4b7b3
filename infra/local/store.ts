import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { attributeDefinitions, globalSecondaryIndexes, tableKey } from '../../lib/store/table';

/**
 * The embedded store: dynalite, a DynamoDB-compatible server, on a loopback port, kept on disk
 * (LevelDB under DATA_DIR) or in memory. The table and its indexes come from `lib/store/table`.
 */

export const LOCAL_TABLE_NAME = 'actions';

export interface LocalStore {
  endpoint: string;
  close(): Promise<void>;
}

export async function startStore(options: { path?: string; port?: number }): Promise<LocalStore> {
  const server = dynalite({
    ...(options.path ? { path: options.path } : {}),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  await ensureTable(endpoint, LOCAL_TABLE_NAME);
  return {
    endpoint,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const localClient = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/** Creates the table and every index on first start; a table that exists is left as it is. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: tableKey.name, KeyType: 'HASH' }],
      AttributeDefinitions: attributeDefinitions(),
      GlobalSecondaryIndexes: globalSecondaryIndexes(),
    }),
  );
  client.destroy();
}
