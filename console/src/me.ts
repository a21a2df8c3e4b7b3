import { signal } from '@preact/signals';
import { api } from './api';
import type { Me } from './api-pending';

/**
 * Who the signed-in person is to the API (`GET /api/me`, contract section 14): their groups and
 * effective grants, which decide what the console offers (the People and access screen, the
 * sites of the pickers). The API decides every request; this only chooses what to show.
 */
export const me = signal<Me | undefined>(undefined);

/** Reads `/api/me` once signed in; without it (an API before section 14) the person has no grants. */
export async function loadMe(): Promise<void> {
  const { data } = await api.GET('/api/me').catch(() => ({ data: undefined }));
  me.value = data ?? { id: '', name: '', groups: [], grants: [] };
}

/** Whether the person administers some scope: then People and access is theirs to see. */
export const isAdmin = (who: Me | undefined): boolean => !!who?.grants.some((grant) => grant.role === 'admin');
