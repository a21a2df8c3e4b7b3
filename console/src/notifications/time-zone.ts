import { api } from '../api';
import { browserZone, timeZone } from '../time';

/** The person's time zone is their notification preference's (section 16), else the browser's. */
export async function loadTimeZone(): Promise<void> {
  const { data } = await api.GET('/api/me/notifications').catch(() => ({ data: undefined }));
  showTimesIn(data?.timeZone);
}

/** Shows every time in `zone` from now on (the browser's when it is absent or unknown). */
export function showTimesIn(zone: string | undefined): void {
  timeZone.value = zone && isZone(zone) ? zone : browserZone();
}

export function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
