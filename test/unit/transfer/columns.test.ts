import { describe, expect, it } from 'vitest';
import { toView } from '../../../lib/model/view';
import { defused, exportHeaders, exportRow } from '../../../lib/transfer/columns';
import { csvEncoder } from '../../../lib/transfer/encoders';
import { exportSettings } from '../../../lib/transfer/settings';
import { anAction } from '../action-fixture';

/** Contract section 18: the export's columns, the injection rule, and the CSV a row becomes. */

const link = (id: string) => `https://console.example.com/actions/${id}`;

describe('export columns', () => {
  it('are the 33 of section 18, in its order', () => {
    expect(exportHeaders).toHaveLength(33);
    expect(exportHeaders.slice(0, 8)).toEqual([
      'id',
      'title',
      'description',
      'status',
      'priority',
      'dueAt',
      'overdue',
      'closedAt',
    ]);
    expect(exportHeaders.slice(-8)).toEqual([
      'location.crew',
      'tags',
      'attachments',
      'comments',
      'endorsements',
      'createdAt',
      'updatedAt',
      'url',
    ]);
  });

  it("prefix text beginning with = + - @ tab or CR with ', and nothing else", () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(defused(text)).toBe(`'${text}`);
    for (const text of ['', 'a=1', ' =1', "'=1", '1-2', '\nx']) expect(defused(text)).toBe(text);
  });

  it('give an action its typed cells: numbers, dates, truth values, counts, its console link', () => {
    const view = toView(anAction({ title: '=cmd', tags: ['-a', 'b'], commentCount: 4 }));
    const row = exportRow(view, link);
    const cell = (name: string) => row[exportHeaders.indexOf(name)];
    expect(cell('title')).toBe("'=cmd");
    expect(cell('tags')).toBe("'-a; b");
    expect(cell('status')).toBe(1);
    expect(cell('priority')).toBe(2);
    expect(cell('dueAt')).toEqual(new Date('2026-12-01T10:00:00.000Z'));
    expect(cell('overdue')).toBe(false);
    expect(cell('closedAt')).toBeUndefined();
    expect(cell('comments')).toBe(4);
    expect(cell('assignee.id')).toBe('undefined');
    expect(cell('url')).toBe(link(view.id));
    expect(exportRow({ ...view, closedAt: '2026-12-02T00:00:00.000Z' } as never, link)[7]).toEqual(
      new Date('2026-12-02T00:00:00.000Z'),
    );
  });

  it('become RFC 4180 CSV with a BOM and CRLF only where the file starts', async () => {
    const fresh = csvEncoder(true);
    await fresh.write([['a,b', 'say "hi"', 3, new Date('2026-01-01T00:00:00Z'), true, undefined]]);
    const text = fresh.take().toString('utf8');
    expect(text.startsWith(`\uFEFF${exportHeaders.join(',')}\r\n`)).toBe(true);
    expect(text.endsWith('"a,b","say ""hi""",3,2026-01-01T00:00:00.000Z,true,\r\n')).toBe(true);
    const resumed = csvEncoder(false);
    await resumed.write([['x']]);
    expect(resumed.take().toString('utf8')).toBe('x\r\n');
  });
});

describe('export settings', () => {
  it('default to 8 MiB parts, 10-minute slices and the bus; refuse nonsense', () => {
    expect(exportSettings(() => undefined)).toEqual({ partBytes: 8 * 1024 * 1024, sliceSeconds: 600, queue: 'bus' });
    const env = (values: Record<string, string>) => (name: string) => values[name];
    expect(() => exportSettings(env({ EXPORT_PART_BYTES: '0' }))).toThrow(/EXPORT_PART_BYTES/);
    expect(() => exportSettings(env({ EXPORT_SLICE_SECONDS: 'soon' }))).toThrow(/EXPORT_SLICE_SECONDS/);
    expect(() => exportSettings(env({ EXPORT_QUEUE: 'sqs' }))).toThrow(/EXPORT_QUEUE/);
  });
});
