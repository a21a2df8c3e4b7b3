import { describe, expect, it } from 'vitest';
import { digestDue, digestEmail } from '../../../lib/notifications/digest';
import { type Happening, noticeEmail } from '../../../lib/notifications/email';
import { applyPreferencesPatch, defaultPreferences, wanted } from '../../../lib/notifications/preferences';
import { formatTime } from '../../../lib/notifications/times';

/** Preferences, the words of an email and of the daily digest: pure, so every word is known. */

const links = { consoleUrl: 'https://console.example.com/', unsubscribeUrl: 'https://console.example.com/api/u?t=x' };

describe('times', () => {
  it('are in the reader’s zone, with the zone named', () => {
    expect(formatTime('2026-12-01T10:00:00Z', 'Australia/Perth')).toBe('Tue 1 Dec 2026, 18:00 AWST');
    expect(formatTime('2026-12-01T10:00:00Z', 'UTC')).toBe('Tue 1 Dec 2026, 10:00 UTC');
    expect(formatTime('2026-07-01T10:00:00Z', 'Europe/Berlin')).toBe('Wed 1 Jul 2026, 12:00 CEST');
    expect(formatTime('2026-12-01T10:00:00Z', 'Asia/Kathmandu')).toBe('Tue 1 Dec 2026, 15:45 GMT+5:45');
  });
});

describe('preferences', () => {
  it('default to every event, at once, UTC, 7 o’clock', () => {
    expect(defaultPreferences()).toEqual({
      email: 'immediately',
      events: { assigned: true, dueSoon: true, overdue: true, escalated: true, comments: true, status: true },
      timeZone: 'UTC',
      digestHour: 7,
    });
  });

  it('take a merge patch, null resetting a field', () => {
    const next = applyPreferencesPatch(defaultPreferences(), {
      email: 'daily',
      events: { comments: false },
      timeZone: 'Australia/Perth',
      digestHour: 18,
    });
    expect(next).toMatchObject({ email: 'daily', timeZone: 'Australia/Perth', digestHour: 18 });
    expect(next.events).toMatchObject({ comments: false, status: true });
    expect(applyPreferencesPatch(next, { timeZone: null, events: { comments: null } })).toMatchObject({
      timeZone: 'UTC',
      events: { comments: true },
    });
  });

  it('refuse what is wrong with a 400 naming each field', () => {
    let caught: unknown;
    try {
      applyPreferencesPatch(defaultPreferences(), {
        email: 'weekly',
        events: { comments: 'no', mentions: true },
        timeZone: 'Mars/Olympus',
        digestHour: 24,
        colour: 'red',
      });
    } catch (error) {
      caught = error;
    }
    const fields = (caught as { errors: Array<{ field: string }> }).errors.map((e) => e.field);
    expect(fields).toEqual(['email', 'events.comments', 'events.mentions', 'timeZone', 'digestHour', 'colour']);
    expect(() => applyPreferencesPatch(defaultPreferences(), [])).toThrow(/body/);
    expect(() => applyPreferencesPatch(defaultPreferences(), { digestHour: 6.5 })).toThrow(/digestHour/);
  });

  it('filter what a notice tells', () => {
    const prefs = applyPreferencesPatch(defaultPreferences(), { events: { status: false } });
    expect(wanted(prefs, ['assigned', 'status'])).toEqual(['assigned']);
    expect(wanted({ ...prefs, email: 'off' }, ['assigned'])).toEqual([]);
  });
});

const commented: Happening = {
  eventId: 'e-1',
  actionId: 'a/1',
  title: 'Replace <worn> belt',
  topics: ['comments'],
  actorName: 'Ann Lee',
  time: '2026-12-01T10:00:00.000Z',
};

describe('an email', () => {
  it('names the action, what happened and by whom, links to it, and unsubscribes in one click', () => {
    const email = noticeEmail(commented, 'Bob', 'Australia/Perth', links);
    expect(email.subject).toBe('New comment: Replace <worn> belt');
    expect(email.text).toContain('Ann Lee commented on "Replace <worn> belt".');
    expect(email.text).toContain('(Tue 1 Dec 2026, 18:00 AWST)');
    expect(email.text).toContain('https://console.example.com/actions/a%2F1');
    expect(email.html).toContain('Replace &lt;worn&gt; belt');
    expect(email.html).not.toContain('<worn>');
    expect(email.headers).toEqual([
      { name: 'List-Unsubscribe', value: '<https://console.example.com/api/u?t=x>' },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ]);
  });

  it('says when a reminder’s action is due, in the reader’s zone', () => {
    const email = noticeEmail(
      { ...commented, topics: ['overdue'], actorName: 'Action tracking service', dueAt: '2026-12-01T01:00:00Z' },
      'Bob',
      'Australia/Perth',
      links,
    );
    expect(email.subject).toBe('Overdue: Replace <worn> belt');
    expect(email.text).toContain('"Replace <worn> belt" is overdue: it was due Tue 1 Dec 2026, 09:00 AWST.');
  });
});

describe('the daily digest', () => {
  // 07:05 in Perth on 2 December.
  const clock = Date.parse('2026-12-01T23:05:00Z');

  it('is due once a day, from the person’s hour in their zone', () => {
    expect(digestDue(clock, 'Australia/Perth', 7, undefined)).toBe(true);
    expect(digestDue(clock, 'Australia/Perth', 7, '2026-12-02')).toBe(false);
    expect(digestDue(clock, 'Australia/Perth', 8, '2026-12-01')).toBe(false);
    expect(digestDue(clock, 'UTC', 7, '2026-11-30')).toBe(true);
  });

  it('is a pure function of what happened, what is overdue and the clock', () => {
    const status: Happening = {
      ...commented,
      eventId: 'e-2',
      actionId: 'a-2',
      title: 'Fix guard rail',
      topics: ['status'],
      status: { before: '1', after: '2' },
      time: '2026-12-01T09:00:00.000Z',
    };
    const email = digestEmail(
      [commented, status],
      [{ actionId: 'a-3', title: 'Inspect crane', dueAt: '2026-11-30T02:00:00.000Z' }],
      clock,
      'Bob',
      'Australia/Perth',
      links,
    );
    expect(email?.subject).toBe('Your summary for Wed 2 Dec 2026: 2 updates, 1 overdue');
    expect(email?.text).toBe(
      [
        'Hello Bob,',
        '',
        'Your summary for Wed 2 Dec 2026: 2 updates, 1 overdue.',
        '',
        'What happened:',
        '- Tue 1 Dec 2026, 17:00 AWST: Ann Lee changed the status of "Fix guard rail" from 1 to 2. https://console.example.com/actions/a-2',
        '- Tue 1 Dec 2026, 18:00 AWST: Ann Lee commented on "Replace <worn> belt". https://console.example.com/actions/a%2F1',
        '',
        'Overdue:',
        '- "Inspect crane" was due Mon 30 Nov 2026, 10:00 AWST. https://console.example.com/actions/a-3',
        '',
        'Change what you are sent, and when, on the Notifications page of the console.',
      ].join('\n'),
    );
    expect(email?.headers.map((h) => h.name)).toEqual(['List-Unsubscribe', 'List-Unsubscribe-Post']);
    expect(digestEmail([], [], clock, 'Bob', 'UTC', links)).toBeUndefined();
  });

  it("tells an import's assignee in one line how many actions it assigned them, linking to their own", () => {
    const imported: Happening = {
      eventId: 'e-9',
      actionId: '',
      title: '',
      topics: ['assigned'],
      actorName: 'Ann Lee',
      time: '2026-12-01T10:00:00.000Z',
      imported: { count: 3 },
    };
    const email = digestEmail([imported], [], Date.parse('2026-12-02T00:00:00.000Z'), 'Bob', 'UTC', links);
    expect(email?.text).toContain(
      "- Tue 1 Dec 2026, 10:00 UTC: 3 actions were assigned to you by Ann Lee's import. https://console.example.com/?assignee=me",
    );
  });
});
