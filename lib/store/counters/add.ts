/**
 * One ADD to several number attributes of one item, as an UpdateItem's (or a transaction's
 * Update's) expression fields: `ADD #a0 :a0, #a1 :a1`. A transaction names an item once, so every
 * count of one item that a write moves goes in one ADD (a day's counts, a "no value" item's fields).
 */
export const addExpression = (adds: ReadonlyArray<readonly [attribute: string, delta: number]>) => ({
  UpdateExpression: `ADD ${adds.map((_, i) => `#a${i} :a${i}`).join(', ')}`,
  ExpressionAttributeNames: Object.fromEntries(adds.map(([attribute], i) => [`#a${i}`, attribute])),
  ExpressionAttributeValues: Object.fromEntries(adds.map(([, delta], i) => [`:a${i}`, delta])),
});
