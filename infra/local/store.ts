import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type GlobalSecondaryIndexDescription,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { fromItem, isTombstone, toItem } from '../../lib/store/item';
import {
  attr,
  attributeDefinitions,
  globalSecondaryIndexes,
  indexList,
  itemKind,
  sortKey,
  tableKey,
} from '../../lib/store/table';

/**
 * The local store: AWS's own DynamoDB Local engine (the jar shipped in the npm package
 * `amplify-dynamodb-simulator`), on a loopback port, kept on disk under `DATA_DIR/dynamodb` or
 * in memory. It is the only local engine because the service needs what only it emulates:
 * transactions and streams. It needs a Java 17+ runtime. The table, its indexes and its stream
 * come from `lib/store/table`, as the CDK construct's do.
 */

export const LOCAL_TABLE_NAME = 'actions';

export interface LocalStore {
  endpoint: string;
  close(): Promise<void>;
}

/** What to install when there is no Java, in one line. */
export const JAVA_MISSING =
  'The local store (AWS DynamoDB Local) needs a Java 17+ runtime: install one (e.g. `apt-get install -y openjdk-17-jre-headless`) and run again.';

/** Whether a Java runtime is on the PATH. */
export const javaAvailable = (): boolean => spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;

export class StoreStartError extends Error {}

const jarDirectory = () =>
  join(dirname(createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json')), 'emulator');

/** A loopback port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function waitUntilServing(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new StoreStartError(`DynamoDB Local exited with code ${child.exitCode}`);
    const ok = await fetch(endpoint, { method: 'POST' }).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new StoreStartError(`DynamoDB Local did not start within ${timeoutMs} ms`);
}

/**
 * A DynamoDB Local left running by a stack that died (its children outlive a SIGKILL) still
 * holds the files under its directory; it is stopped before a new one starts there. Gently
 * first: killed outright, DynamoDB Local can lose the last write it acknowledged.
 */
async function stopOrphan(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const running = () => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal.jar');
    } catch {
      return false;
    }
  };
  if (running()) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (running() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (running()) process.kill(pid, 'SIGKILL');
  }
  rmSync(pidFile, { force: true });
}

/** Starts DynamoDB Local: on disk under `path`, or in memory without one. */
export async function startStore(options: { path?: string } = {}): Promise<LocalStore> {
  if (!javaAvailable()) throw new StoreStartError(JAVA_MISSING);
  const dir = jarDirectory();
  const port = await freePort();
  const pidFile = options.path ? join(options.path, 'dynamodb-local.pid') : undefined;
  if (options.path) mkdirSync(options.path, { recursive: true, mode: 0o700 });
  if (pidFile) await stopOrphan(pidFile);
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      ...(options.path ? ['-dbPath', options.path] : ['-inMemory']),
      '-port',
      String(port),
    ],
    { cwd: dir, stdio: 'ignore' },
  );
  if (pidFile && child.pid) writeFileSync(pidFile, String(child.pid), { mode: 0o600 });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    // A machine busy with other work can take longer to start the JVM; STORE_START_TIMEOUT_MS allows for it.
    await waitUntilServing(endpoint, child, Number(process.env.STORE_START_TIMEOUT_MS) || 30_000);
    await ensureTable(endpoint, LOCAL_TABLE_NAME);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    endpoint,
    close: async () => {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      if (pidFile) rmSync(pidFile, { force: true });
    },
  };
}

export const localClient = (endpoint: string) =>
  new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/**
 * Creates the table, its indexes and its stream on first start. A table an earlier version made
 * on disk is brought up to date: each index it lacks is added (one per UpdateTable, as DynamoDB
 * allows), and the actions written before get the keys the new indexes order by. An index whose
 * keys or projection changed cannot be altered in place; that is a StoreStartError naming it.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    const existing = await describe(client, tableName);
    if (existing) await upgradeTable(client, existing);
    else await createTable(client, tableName);
  } finally {
    client.destroy();
  }
}

type WantedIndex = ReturnType<typeof globalSecondaryIndexes>[number];

/** Creates the table with these indexes (all of them unless told otherwise) and its stream. */
export async function createTable(
  client: DynamoDBClient,
  tableName: string,
  gsis: WantedIndex[] = globalSecondaryIndexes(),
): Promise<void> {
  const keyNames = new Set([
    tableKey.name,
    sortKey.name,
    ...gsis.flatMap((i) => i.KeySchema.map((k) => k.AttributeName)),
  ]);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: tableKey.name, KeyType: 'HASH' },
        { AttributeName: sortKey.name, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: attributeDefinitions().filter((d) => keyNames.has(d.AttributeName)),
      GlobalSecondaryIndexes: gsis,
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
}

async function describe(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/** Whether a stored index has the keys and projection the store expects. */
const sameIndex = (have: GlobalSecondaryIndexDescription, want: WantedIndex) =>
  JSON.stringify(have.KeySchema) === JSON.stringify(want.KeySchema) &&
  have.Projection?.ProjectionType === want.Projection.ProjectionType &&
  JSON.stringify([...(have.Projection?.NonKeyAttributes ?? [])].sort()) ===
    JSON.stringify([...(want.Projection.NonKeyAttributes ?? [])].sort());

async function upgradeTable(client: DynamoDBClient, table: TableDescription): Promise<void> {
  const tableName = table.TableName as string;
  const have = new Map((table.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index]));
  const wanted = globalSecondaryIndexes();
  const changed = wanted.filter((w) => {
    const stored = have.get(w.IndexName);
    return stored !== undefined && !sameIndex(stored, w);
  });
  if (changed.length > 0)
    throw new StoreStartError(
      `The store on disk was made by an earlier version whose index ${changed.map((i) => i.IndexName).join(', ')} differs from this one's: move DATA_DIR's dynamodb folder aside (or delete it) and start again.`,
    );
  const missing = wanted.filter((w) => !have.has(w.IndexName));
  if (missing.length === 0) return;
  for (const index of missing) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: attributeDefinitions(),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    await untilActive(client, tableName, index.IndexName);
  }
  await backfillIndexKeys(client, tableName);
}

async function untilActive(client: DynamoDBClient, tableName: string, indexName: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const index = (await describe(client, tableName))?.GlobalSecondaryIndexes?.find((i) => i.IndexName === indexName);
    if (index?.IndexStatus === 'ACTIVE') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new StoreStartError(`DynamoDB Local did not finish building the index ${indexName} within a minute`);
}

/** Gives every stored action the index keys this version writes and an earlier one did not. */
async function backfillIndexKeys(client: DynamoDBClient, tableName: string): Promise<void> {
  const documents = DynamoDBDocumentClient.from(client);
  const keys = [...new Set(indexList.flatMap((index) => [index.partitionKey.name, index.sortKey.name]))];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '#sk = :action',
        ExpressionAttributeNames: { '#sk': attr.sortKey },
        ExpressionAttributeValues: { ':action': itemKind.action },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (isTombstone(item)) continue;
      const expected = toItem(fromItem(item));
      const stale = keys.filter((k) => expected[k] !== undefined && expected[k] !== item[k]);
      if (stale.length === 0) continue;
      await documents.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { [attr.id]: item[attr.id], [attr.sortKey]: itemKind.action },
          UpdateExpression: `SET ${stale.map((_, i) => `#k${i} = :k${i}`).join(', ')}`,
          ConditionExpression: '#v = :v',
          ExpressionAttributeNames: {
            '#v': attr.version,
            ...Object.fromEntries(stale.map((k, i) => [`#k${i}`, k])),
          },
          ExpressionAttributeValues: {
            ':v': item[attr.version],
            ...Object.fromEntries(stale.map((k, i) => [`:k${i}`, expected[k]])),
          },
        }),
      );
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}
