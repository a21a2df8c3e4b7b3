import { api } from '../api';
import { problemOf } from '../problem';
import type { Action, Comment, HistoryEntry, Problem } from '../types';

/** One action's page as read: the action, its whole comment thread and its whole history. */
export interface LoadedAction {
  action: Action;
  comments: Comment[];
  history: HistoryEntry[];
}

/** Every page of a cursor-paged thread (comments, history), oldest first. */
async function allPages<T>(
  fetchPage: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string } | undefined>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    if (!page) break;
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/** Reads an action, its comments and its history at once; the action's problem (a 404 above all) if it cannot be read. */
export async function loadAction(id: string): Promise<LoadedAction | Problem> {
  const path = { id };
  const [action, comments, history] = await Promise.all([
    api.GET('/api/actions/{id}', { params: { path } }),
    allPages(async (cursor) => {
      const { data } = await api.GET('/api/actions/{id}/comments', { params: { path, query: { limit: 100, cursor } } });
      return data && { items: data.comments, nextCursor: data.nextCursor };
    }),
    allPages(async (cursor) => {
      const { data } = await api.GET('/api/actions/{id}/history', { params: { path, query: { limit: 100, cursor } } });
      return data && { items: data.entries, nextCursor: data.nextCursor };
    }),
  ]);
  if (!action.data) return problemOf(action.error, action.response);
  return { action: action.data, comments, history };
}
