/**
 * The console's screens and their addresses (contract section 13), once: the page's router reads
 * them, and the local gateway serves `index.html` at exactly these paths (client routing), so a
 * copied address opens the same screen.
 */

/** The four lists of the navigation, each a path of its own. */
export const LIST_VIEWS = {
  mine: { path: '/', label: 'My actions' },
  overdue: { path: '/overdue', label: 'Overdue' },
  dueSoon: { path: '/due-soon', label: 'Due soon' },
  all: { path: '/all', label: 'All actions' },
} as const;

export type ListView = keyof typeof LIST_VIEWS;

/** The person's own screens: notification preferences, and (for admins) who may see what. */
export const ACCOUNT_SCREENS = {
  notifications: { path: '/notifications', label: 'Notifications' },
  access: { path: '/access', label: 'People and access' },
} as const;

/** Screens of the navigation beside the lists: where things stand (section 17), and bringing actions in (section 18). */
export const TOOL_SCREENS = {
  overview: { path: '/overview', label: 'Overview' },
  import: { path: '/import', label: 'Import' },
} as const;

export type Screen =
  | { name: 'list'; view: ListView }
  | { name: keyof typeof TOOL_SCREENS }
  | { name: 'action'; id: string }
  | { name: 'new' }
  | { name: keyof typeof ACCOUNT_SCREENS };

/** The screen a path shows, or undefined when the console has none there. */
export function screenOf(pathname: string): Screen | undefined {
  for (const [view, { path }] of Object.entries(LIST_VIEWS))
    if (pathname === path) return { name: 'list', view: view as ListView };
  if (pathname === '/new') return { name: 'new' };
  for (const [name, { path }] of Object.entries(TOOL_SCREENS))
    if (pathname === path) return { name: name as keyof typeof TOOL_SCREENS };
  for (const [name, { path }] of Object.entries(ACCOUNT_SCREENS))
    if (pathname === path) return { name: name as keyof typeof ACCOUNT_SCREENS };
  const action = /^\/actions\/([^/]+)$/.exec(pathname);
  if (action?.[1]) {
    try {
      return { name: 'action', id: decodeURIComponent(action[1]) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The address of one action's page. */
export const actionPath = (id: string) => `/actions/${encodeURIComponent(id)}`;
