import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/recordScanResults';
import { recordScanResult, type ScanResultEvent } from '../../lib/evidence/scan-results';
import {
  actionBody,
  call,
  create,
  expectProblem,
  getOne,
  newUser,
  uniqueProducer,
  useOwnStack,
} from '../support/client';
import { addFile, download } from '../support/evidence';

/**
 * Issue 38, contract section 15: where a scanner runs (`MALWARE_SCAN`), an attached file shows
 * `scan: "pending"` and is not served until GuardDuty's verdict is recorded. GuardDuty does not
 * run here, so the test hands the function its event as EventBridge would (the shape AWS
 * documents for "GuardDuty Malware Protection Object Scan Result"), on a stack of its own that
 * has the scanner's setting on; the rest goes through real HTTP.
 */

useOwnStack({ MALWARE_SCAN: 'true', LOG_LEVEL: 'silent' });

/** GuardDuty's event for one scanned object, as the rule on the default bus delivers it. */
function scanResult(key: string, status: string, bucketName = process.env.EVIDENCE_BUCKET): ScanResultEvent {
  return {
    'detail-type': 'GuardDuty Malware Protection Object Scan Result',
    source: 'aws.guardduty',
    detail: {
      scanStatus: status === 'FAILED' ? 'FAILED' : 'COMPLETED',
      s3ObjectDetails: { bucketName, objectKey: key },
      scanResultDetails: { scanResultStatus: status },
    },
  };
}

const runHandler = (event: ScanResultEvent) =>
  (handler as unknown as (event: ScanResultEvent, context: object) => Promise<void>)(event, {});

describe('malware scan results', () => {
  const owner = newUser('Gus Guarded');

  it('a file is pending and not served until the verdict; clean is then served, and its entry is the service’s', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('scan')));
    const file = await addFile(owner, id, randomBytes(40), 'image/png');
    expect(file.scan).toBe('pending');
    const waiting = await download(owner, id, file.id);
    expectProblem(waiting, 409);
    expect(waiting.body.detail).toMatch(/still being scanned/);
    const before = (await getOne(owner.token, id)).body;

    await runHandler(scanResult(`attachments/${id}/${file.id}`, 'NO_THREATS_FOUND'));
    const after = (await getOne(owner.token, id)).body;
    expect(after.attachments.find((a: { id: string }) => a.id === file.id).scan).toBe('clean');
    expect(after.version).toBe(before.version + 1);
    // A change the service makes on its own: updatedAt stays the last person's change.
    expect(after.updatedAt).toBe(before.updatedAt);
    const history = await call('GET', `/api/actions/${id}/history`, { token: owner.token });
    expect(history.body.entries.at(-1)).toMatchObject({
      type: 'attachment-scanned',
      actor: { id: 'system' },
      attachment: { id: file.id, name: 'guard.jpg', scan: 'clean' },
    });
    expect((await download(owner, id, file.id)).status).toBe(302);

    // EventBridge delivers at least once: the same verdict again changes nothing.
    expect(await recordScanResult(scanResult(`attachments/${id}/${file.id}`, 'NO_THREATS_FOUND'))).toBe('unchanged');
    expect((await getOne(owner.token, id)).body.version).toBe(after.version);
  });

  it('a threat is recorded and never served', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('scan-threat')));
    const file = await addFile(owner, id, randomBytes(40), 'image/png');
    expect(await recordScanResult(scanResult(`attachments/${id}/${file.id}`, 'THREATS_FOUND'))).toBe('recorded');
    const action = (await getOne(owner.token, id)).body;
    expect(action.attachments.find((a: { id: string }) => a.id === file.id).scan).toBe('threat');
    const refused = await download(owner, id, file.id);
    expectProblem(refused, 409);
    expect(refused.body.detail).toMatch(/found a threat/);
  });

  it('results that are no verdict, or not about an attached file of this bucket, change nothing', async () => {
    const id = await create(owner.token, actionBody(uniqueProducer('scan-ignored')));
    const file = await addFile(owner, id, randomBytes(40), 'image/png');
    const key = `attachments/${id}/${file.id}`;
    const ignored = [
      scanResult(key, 'FAILED'),
      scanResult(key, 'UNSUPPORTED'),
      scanResult(key, 'NO_THREATS_FOUND', 'someone-elses-bucket'),
      scanResult(`uploads/${id}/${file.id}`, 'NO_THREATS_FOUND'),
      scanResult(`attachments/${id}/${file.id}/more`, 'NO_THREATS_FOUND'),
      scanResult(`attachments/${randomUUID()}/${file.id}`, 'NO_THREATS_FOUND'),
      {},
    ];
    for (const event of ignored) expect(await recordScanResult(event), JSON.stringify(event)).toBe('ignored');
    // An attachment removed before its verdict arrived: nothing to record.
    expect(await recordScanResult(scanResult(`attachments/${id}/${randomUUID()}`, 'THREATS_FOUND'))).toBe('unchanged');
    const action = (await getOne(owner.token, id)).body;
    expect(action.version).toBe(2);
    expect(action.attachments[0].scan).toBe('pending');
  });
});
