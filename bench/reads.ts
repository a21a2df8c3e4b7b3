import { getDocumentClient } from '../lib/store/client';

/**
 * Read units as DynamoDB Local reports them (`ReturnConsumedCapacity: TOTAL`, which sizes each
 * read by DynamoDB's rules: per request, the bytes read rounded up to 4 KB, halved for an
 * eventually consistent read): every Get, Query, Scan and BatchGet this process's store client
 * sends while the count runs, on the table and the postings table alike.
 */

type Send = (
  command: { constructor: { name: string }; input?: Record<string, unknown> },
  options?: unknown,
) => Promise<any>;

const READS = new Set(['GetCommand', 'QueryCommand', 'ScanCommand', 'BatchGetCommand']);

/** Counts read units until `stop()`; `units.read` is the sum so far, `units.requests` the reads. */
export function countingReads() {
  const client = getDocumentClient() as unknown as { send: Send };
  const original = client.send.bind(client) as Send;
  const units = { read: 0, requests: 0 };
  client.send = async (command, options) => {
    if (!READS.has(command.constructor.name) || !command.input) return original(command, options);
    command.input.ReturnConsumedCapacity ??= 'TOTAL';
    const answer = await original(command, options);
    const consumed = answer?.ConsumedCapacity as
      | { CapacityUnits?: number }
      | Array<{ CapacityUnits?: number }>
      | undefined;
    const list = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
    units.read += list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
    units.requests++;
    return answer;
  };
  return { units, stop: () => (client.send = original) };
}
