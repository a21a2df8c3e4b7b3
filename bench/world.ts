import type { Location, Person } from '../lib/model/action';

/**
 * The fixed cast of the generated data: people, business units and sites, producers and the
 * words titles are made of. Pure and seeded, so the benchmark can name "the 4th site" or
 * "the 3rd person" in its queries before any action exists.
 */

/** Due and created dates spread around this instant, never around "now", so results repeat. */
export const REFERENCE_DATE = '2025-06-01T00:00:00.000Z';

/** mulberry32: a tiny, fast, seedable PRNG; good enough to spread test data. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A UUID v4 drawn from `next`, as random-looking as the service's ids and still repeatable. */
export function uuidFrom(next: () => number): string {
  const bytes = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) bytes[i] = Math.floor(next() * 256);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An index drawn with the given relative weights. */
export function weighted(next: () => number, weights: readonly number[]): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let r = next() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i] as number;
    if (r < 0) return i;
  }
  return weights.length - 1;
}

export const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

export const EMPTY_LOCATION: Location = {
  businessUnit: '',
  site: '',
  department: '',
  workGroup: '',
  productiveUnit: '',
  team: '',
  crew: '',
};

export interface Site {
  name: string;
  businessUnit: string;
  departments: string[];
}

export interface Producer {
  name: string;
  /** Systems that send a reference number; people typing into the field app do not. */
  prefix?: string;
  url?: string;
}

export interface World {
  people: Person[];
  businessUnits: string[];
  /** Ordered by how many actions they get, busiest first. */
  sites: Site[];
  producers: Producer[];
  producerWeights: number[];
  vocabulary: { verbs: string[]; objects: string[]; places: string[]; sentences: string[]; teams: string[] };
}

const FIRST = [
  'Ana',
  'Ben',
  'Chloe',
  'Dev',
  'Elif',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jack',
  'Kofi',
  'Lena',
  'Mateo',
  'Nora',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sam',
  'Tariq',
  'Uma',
  'Victor',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zoe',
  'Liam',
  'Aroha',
  'Mia',
  'Noah',
  'Sofia',
  'Kai',
];
const LAST = [
  'Ng',
  'Smith',
  'García',
  'Okafor',
  'Müller',
  'Rossi',
  'Kowalski',
  'Tanaka',
  'Nguyen',
  'Silva',
  'Brown',
  'Khan',
  'Dubois',
  'Jensen',
  'Wilson',
  'Patel',
  'Haddad',
  'Ivanova',
  'Murphy',
  'Cohen',
  'Santos',
  "O'Brien",
  'Lee',
  'Walker',
  'Mensah',
  'Costa',
  'Novak',
  'Larsen',
  'Reyes',
  'Ahmed',
  'Kim',
];
const BUSINESS_UNITS = ['Mining', 'Processing', 'Logistics', 'Maintenance', 'Corporate'];
const SITE_NAMES = [
  'Mount Keith',
  'Ridgeway',
  'Port Hedland',
  'Olympic Dam',
  'Boddington',
  'Cadia',
  'Telfer',
  'Granny Smith',
  'Kalgoorlie',
  'Newman',
  'Tom Price',
  'Paraburdoo',
  'Karratha',
  'Dampier',
  'Geraldton',
  'Esperance',
  'Kwinana',
  'Pinjarra',
  'Wagerup',
  'Gladstone',
  'Mackay',
  'Townsville',
  'Mount Isa',
  'Cannington',
  'Ernest Henry',
  'Moranbah',
  'Blackwater',
  'Emerald',
  'Head Office',
  'Perth Depot',
];
const DEPARTMENTS = ['Operations', 'Engineering', 'HSE', 'Fixed Plant', 'Mobile Plant', 'Warehouse', 'Survey', 'Lab'];
const VERBS = [
  'Replace',
  'Inspect',
  'Repair',
  'Clean',
  'Calibrate',
  'Check',
  'Install',
  'Remove',
  'Update',
  'Review',
  'Secure',
  'Label',
  'Lubricate',
  'Test',
  'Investigate',
  'Barricade',
];
const OBJECTS = [
  'conveyor belt',
  'guard rail',
  'pump seal',
  'hydraulic hose',
  'fire extinguisher',
  'emergency stop',
  'ladder',
  'forklift brakes',
  'safety shower',
  'lighting',
  'ventilation fan',
  'pressure gauge',
  'spill kit',
  'first aid kit',
  'scaffold',
  'crane hook',
  'electrical panel',
  'valve',
  'handrail',
  'walkway grating',
  'dust extractor',
  'gas detector',
  'tyre cage',
  'isolation lock',
  'chemical store',
  'eyewash station',
  'air compressor',
  'cable tray',
  'lifting sling',
  'loading ramp',
  'bund wall',
  'signage',
  'haul road berm',
  'light vehicle',
  'welding bay',
  'crusher liner',
  'slurry line',
  'tailings spigot',
  'dewatering pump',
  'site induction record',
];
const PLACES = [
  'at the crusher',
  'in workshop 2',
  'near gate 4',
  'at the wash bay',
  'on level 3',
  'in the control room',
  'at the rail loop',
  'in the tank farm',
  'at the fuel bay',
  'in the mill',
  'at the stockpile',
  'on the north pit ramp',
];
const SENTENCES = [
  'Found during the weekly inspection at {site}.',
  'The {object} shows visible wear and must be dealt with before the next shift.',
  'Raised after a near miss involving the {object}.',
  'Operators reported the {object} twice this month.',
  'Follow up with the supervisor and record the result in the maintenance system.',
  'Parts are on order; use the temporary control until they arrive.',
  'Isolate the area and notify the area owner before starting work.',
  'Photos attached. Check that the corrective action is effective after one week.',
  'Audit finding: the {object} does not meet the site standard.',
  'Contractor to quote; the work needs a permit.',
];
const TEAMS = ['Day shift', 'Night shift', 'Electrical', 'Mechanical', 'Civil', 'Process', 'Safety'];
const PRODUCERS: Producer[] = [
  { name: 'Inspections', prefix: 'INS', url: 'https://inspections.example.com/findings' },
  { name: 'Field App' },
  { name: 'Incident Management', prefix: 'INC', url: 'https://incidents.example.com/incidents' },
  { name: 'Maintenance Planning', prefix: 'WO', url: 'https://maintenance.example.com/work-orders' },
  { name: 'Audits', prefix: 'AUD', url: 'https://audits.example.com/findings' },
  { name: 'Risk Register', prefix: 'RSK', url: 'https://risk.example.com/risks' },
  { name: 'Email Intake' },
];
const PRODUCER_WEIGHTS = [30, 20, 15, 12, 10, 8, 5];

/** The cast for a seed: 1,000 people, 5 business units, 30 sites, 7 producers. */
export function world(seed = 1): World {
  const next = random(seed);
  const people: Person[] = Array.from({ length: 1_000 }, (_, i) => {
    const first = pick(next, FIRST);
    const last = pick(next, LAST);
    const id = uuidFrom(next);
    const email = next() < 0.1 ? null : `${first}.${last}.${i}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, '');
    return { id, name: `${first} ${last}`, email };
  });
  const sites: Site[] = SITE_NAMES.map((name, i) => ({
    name,
    businessUnit: BUSINESS_UNITS[i % BUSINESS_UNITS.length] as string,
    departments: DEPARTMENTS.filter(() => next() < 0.6),
  })).map((site) => (site.departments.length > 0 ? site : { ...site, departments: ['Operations'] }));
  return {
    people,
    businessUnits: BUSINESS_UNITS,
    sites,
    producers: PRODUCERS,
    producerWeights: PRODUCER_WEIGHTS,
    vocabulary: { verbs: VERBS, objects: OBJECTS, places: PLACES, sentences: SENTENCES, teams: TEAMS },
  };
}
