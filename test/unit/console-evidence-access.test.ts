import { describe, expect, it } from 'vitest';
import {
  emptyGrant,
  grantBody,
  grantInWords,
  principalInWords,
  scopeInWords,
} from '../../console/src/access/grant-words';
import { knownLocations } from '../../console/src/access/locations';
import type { NotificationPreferences } from '../../console/src/api-pending';
import { bytesInWords } from '../../console/src/evidence/bytes';
import { fitted, jpegName, LONG_SIDE } from '../../console/src/evidence/photo-size';
import { hourInWords, preferencesPatch } from '../../console/src/notifications/preferences-form';

/** Issues 37-39: the pure parts of People and access, photos and Notifications. */
describe('console access', () => {
  it('says who, which role and where, and builds the grant body from the form', () => {
    expect(principalInWords({ type: 'person', id: 'u-ann', name: 'Ann Lee' })).toBe('Ann Lee (u-ann)');
    expect(principalInWords({ type: 'person', id: 'u-ann' })).toBe('u-ann');
    expect(principalInWords({ type: 'group', name: 'contractors' })).toBe('Group contractors');
    expect(scopeInWords({})).toBe('Everything');
    expect(scopeInWords({ businessUnit: 'Iron Ore', site: 'North Pit' })).toBe('Iron Ore › North Pit');
    expect(
      grantInWords({
        id: 'g',
        principal: { type: 'group', name: 'crew-a' },
        role: 'manager',
        scope: { businessUnit: 'Coal' },
      }),
    ).toBe('Manager of Coal for Group crew-a');
    expect(grantBody({ ...emptyGrant(), principal: ' u-bob ', businessUnit: ' Iron Ore ', site: 'North Pit' })).toEqual(
      {
        principal: { type: 'person', id: 'u-bob' },
        role: 'viewer',
        scope: { businessUnit: 'Iron Ore', site: 'North Pit' },
      },
    );
    expect(grantBody({ ...emptyGrant(), principalType: 'group', principal: 'crew', role: 'admin' })).toEqual({
      principal: { type: 'group', name: 'crew' },
      role: 'admin',
      scope: {},
    });
  });

  it('offers the business units and sites that exist, each once, sorted', () => {
    expect(
      knownLocations([
        { businessUnit: 'Iron Ore', site: 'South Pit' },
        { businessUnit: 'Iron Ore', site: 'North Pit' },
        { businessUnit: 'Coal', site: '' },
        { businessUnit: '', site: 'Orphan' },
        { businessUnit: 'Iron Ore', site: 'North Pit' },
        {},
      ]),
    ).toEqual({ businessUnits: ['Coal', 'Iron Ore'], sitesOf: { Coal: [], 'Iron Ore': ['North Pit', 'South Pit'] } });
  });
});

describe('console photos', () => {
  it('fits a photo within 2,560 px on its long side, keeping its shape, and never enlarges one', () => {
    expect(fitted(4032, 3024)).toEqual({ width: LONG_SIDE, height: 1920 });
    expect(fitted(3024, 4032)).toEqual({ width: 1920, height: LONG_SIDE });
    expect(fitted(800, 600)).toEqual({ width: 800, height: 600 });
    expect(fitted(100_000, 1)).toEqual({ width: LONG_SIDE, height: 1 });
    expect(jpegName('IMG_0001.HEIC')).toBe('IMG_0001.jpg');
    expect(jpegName('guard.png')).toBe('guard.jpg');
    expect(jpegName('no-ending')).toBe('no-ending.jpg');
    expect(jpegName('.png')).toBe('photo.jpg');
    expect(bytesInWords(1)).toBe('1 byte');
    expect(bytesInWords(999)).toBe('999 bytes');
    expect(bytesInWords(14_200)).toBe('14 KB');
    expect(bytesInWords(4_830_000)).toBe('4.8 MB');
  });
});

describe('console notifications', () => {
  const saved: NotificationPreferences = {
    email: 'immediately',
    events: { assigned: true, dueSoon: true, overdue: true, escalated: true, comments: true, status: true },
    timeZone: 'UTC',
    digestHour: 7,
  };
  it('sends only the preferences changed, as a merge patch', () => {
    expect(preferencesPatch(saved, saved)).toEqual({});
    expect(
      preferencesPatch(saved, {
        ...saved,
        email: 'daily',
        digestHour: 18,
        timeZone: 'Australia/Perth',
        events: { ...saved.events, comments: false },
      }),
    ).toEqual({ email: 'daily', digestHour: 18, timeZone: 'Australia/Perth', events: { comments: false } });
    expect(hourInWords(7)).toBe('07:00');
    expect(hourInWords(23)).toBe('23:00');
  });
});
