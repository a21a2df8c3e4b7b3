import { randomUUID } from 'node:crypto';
import { getConfig } from '../../config';
import type { Person } from '../../model/action';
import { importedEmail } from '../../notifications/email';
import { sendEmail } from '../../notifications/mailer';
import { mayEmail } from '../../notifications/notifier';
import { preferencesFor, unsubscribeUrl } from '../../notifications/people-preferences';
import { wanted } from '../../notifications/preferences';
import { claimSend, markSent, releaseSend } from '../../store/notifications';
import { knownPeople } from '../../store/people';

/**
 * Tells each assignee of an import once (contract sections 16 and 18): "N actions were assigned
 * to you", by the same rules as every notice: not the importer about their own import, only
 * people who want `assigned` emails, only to the verified address of their own sign-in, and once
 * per person per import (a claim on `import-<id>`, as the notifier claims each event), so a
 * resumed worker sends nothing twice. The creates themselves tell nobody (their sight names the import).
 */
export async function tellAssignees(
  importId: string,
  importer: Person,
  counts: ReadonlyArray<readonly [string, number]>,
): Promise<number> {
  const config = getConfig();
  if (!config.notificationsFrom) return 0;
  const others = counts.filter(([id]) => id !== importer.id);
  let sent = 0;
  for (let i = 0; i < others.length; i += 100) {
    const batch = others.slice(i, i + 100);
    const people = await knownPeople(batch.map(([id]) => id));
    for (const [id, count] of batch) {
      const person = people.get(id);
      if (!person) continue;
      const { preferences, unsubscribeToken } = await preferencesFor(id);
      if (wanted(preferences, ['assigned']).length === 0) continue;
      const address = await mayEmail(person);
      if (!address) continue;
      const eventId = `import-${importId}`;
      const token = randomUUID();
      if (!(await claimSend(id, eventId, token))) continue;
      try {
        const email = importedEmail(count, importer.name, person.name, {
          consoleUrl: config.consoleUrl ?? '',
          unsubscribeUrl: unsubscribeUrl(id, unsubscribeToken),
        });
        await sendEmail(address, email);
      } catch (error) {
        await releaseSend(id, eventId, token);
        throw error;
      }
      await markSent(id, eventId, token);
      sent++;
    }
  }
  return sent;
}
