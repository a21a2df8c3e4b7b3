/**
 * How the service compares text case-insensitively: canonically equivalent texts alike (NFC, so
 * `Cafe\u0301` and `Café` are one text), then lower case. Stored values keep what was sent; the
 * store keeps this copy beside them (`lib/store/item.ts`), and the query language folds its
 * values the same way (`lib/filter/query.ts`), so both sides of every such comparison agree.
 * (Lower-casing can leave a text outside NFC, hence the second normalization.)
 */
export const foldForComparison = (text: string): string => text.normalize('NFC').toLowerCase().normalize('NFC');
