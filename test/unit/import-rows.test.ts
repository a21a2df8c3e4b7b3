import { describe, expect, it } from 'vitest';
import { bodyOf, readHeader, UnreadableFile } from '../../lib/transfer/import/columns';
import { readCsv } from '../../lib/transfer/import/read-csv';

/** The pure half of an import (contract section 18): the header, a row's body, the CSV reader. */

async function* chunks(bytes: Uint8Array, size = 7): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
async function records(bytes: Uint8Array): Promise<string[][]> {
  const all: string[][] = [];
  for await (const record of readCsv(chunks(bytes))) all.push(record);
  return all;
}

describe('the header', () => {
  it('matches the export columns in any case and order, and lists the rest once', () => {
    const header = readHeader(['STATUS', 'Title', 'dueat', 'id', 'Notes', 'priority', 'actionProducer.Name', 'Notes']);
    expect(header.positions).toMatchObject({ status: 0, title: 1, dueAt: 2, priority: 5, 'actionProducer.name': 6 });
    expect(header.ignored).toEqual(['id', 'Notes']);
  });

  it('a missing required column fails the file, naming every one missing; a column twice too', () => {
    expect(() => readHeader(['title', 'status'])).toThrow(
      "The header row has no 'actionProducer.name', 'dueAt', 'priority' columns",
    );
    expect(() => readHeader(['title', 'Title'])).toThrow(UnreadableFile);
  });
});

describe("a row's body", () => {
  const header = readHeader([
    'title',
    'actionProducer.name',
    'dueAt',
    'priority',
    'status',
    'assignee.id',
    'assignee.name',
    'tags',
    'location.site',
    'description',
  ]);
  it('leaves empty optional cells out, keeps numbers, splits tags, and reads the unassigned placeholder as nobody', () => {
    expect(
      bodyOf(header, [
        'T',
        'P',
        new Date(Date.UTC(2030, 0, 2)),
        2,
        '1',
        'undefined',
        'Unknown user',
        ' a ; b;',
        '',
        '',
      ]),
    ).toEqual({
      title: 'T',
      actionProducer: { name: 'P' },
      dueAt: '2030-01-02T00:00:00.000Z',
      priority: 2,
      status: '1',
      tags: ['a', 'b'],
    });
    expect(bodyOf(header, ['', '', '', '', '', 'bob', '', '', 'North', 'd'])).toEqual({
      title: '',
      actionProducer: { name: '' },
      dueAt: '',
      priority: '',
      status: '',
      assignee: { id: 'bob' },
      location: { site: 'North' },
      description: 'd',
    });
  });
});

describe('the CSV reader', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  it('reads RFC 4180 with quoted commas, quotes and line breaks, split across chunks', async () => {
    expect(await records(utf8('a,b\r\n"x, ""y""","line 1\r\nline 2"\r\n'))).toEqual([
      ['a', 'b'],
      ['x, "y"', 'line 1\r\nline 2'],
    ]);
  });
  it('drops a BOM and takes semicolons when the header has semicolons and no commas', async () => {
    expect(await records(utf8('\ufefftitle;status\r\nA, B;1\r\n'))).toEqual([
      ['title', 'status'],
      ['A, B', '1'],
    ]);
    // A header with both is comma-separated.
    expect(await records(utf8('title,note;x\r\nA,b;c\r\n'))).toEqual([
      ['title', 'note;x'],
      ['A', 'b;c'],
    ]);
  });
  it('a character split between chunks is whole; a file that is not UTF-8 fails whole, naming the likely encoding', async () => {
    expect(await records(utf8('title\r\nCafé ☕ déjà\r\n'))).toEqual([['title'], ['Café ☕ déjà']]);
    await expect(records(new Uint8Array(Buffer.from('title\r\nCafé\r\n', 'latin1')))).rejects.toThrow(
      /not UTF-8: it looks like ISO-8859-1 \(Latin-1\) or Windows-1252/,
    );
    await expect(records(new Uint8Array(Buffer.from('\ufefftitle\r\n', 'utf16le')))).rejects.toThrow(/UTF-16/);
  });
});
