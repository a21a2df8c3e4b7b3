import { type Location, locationFields } from '../model/action';
import { MAX_SORT_KEY_BYTES } from './client';

/**
 * A whole location (its seven fields, in field order) as one value, and back: a JSON array of
 * seven strings, so any string round-trips (commas, quotes, '' included) and no two locations
 * share an encoding. Each location's counter (`counters/prefixes.ts`, `locationCounter`) is kept
 * under it, so reading the counters lists every location, which answers exact counts of any
 * clause on a location field (`list/location-counts.ts`).
 */

/** A location as a counter's sort key; `undefined` when it is too long for one (it is then not counted). Pure. */
export function encodeLocation(location: Partial<Location>): string | undefined {
  const encoded = JSON.stringify(locationFields.map((field) => location[field] ?? ''));
  return Buffer.byteLength(encoded, 'utf8') > MAX_SORT_KEY_BYTES ? undefined : encoded;
}

/** The location a registry value encodes; `undefined` for anything `encodeLocation` cannot have written. Pure. */
export function decodeLocation(encoded: string): Location | undefined {
  let values: unknown;
  try {
    values = JSON.parse(encoded);
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values.length !== locationFields.length || !values.every((v) => typeof v === 'string'))
    return undefined;
  return Object.fromEntries(locationFields.map((field, i) => [field, values[i]])) as Location;
}
