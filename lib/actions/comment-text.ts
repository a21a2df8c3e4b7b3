import { v7 as uuidv7 } from 'uuid';
import * as z from 'zod';
import { nowIso } from '../dates';
import { ForbiddenError } from '../errors';
import { placementOf, type Who } from '../model/access';
import { actionLimits, type Comment } from '../model/action';
import { validateBody } from '../model/validate-body';
import { commentWrites, readComment } from '../store/actions/threads';
import { type GuardedWrite, mutate } from '../store/actions/writes';
import { commenting, noSuchComment } from './comments';

/**
 * Writing a comment's text (contract section 8): adding one and editing one, the two that
 * validate a body. Apart from `comments.ts` so that deleting, endorsing and reading a thread
 * carry no zod.
 */

/** Control characters other than tab, line feed and carriage return. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const commentBodySchema = z.strictObject({
  text: z
    .string()
    .max(actionLimits.comment, `must be at most ${actionLimits.comment} characters`)
    .refine((s) => s.trim() !== '', 'must not be empty or only white space')
    .refine((s) => s.isWellFormed(), 'must be well-formed Unicode (no lone surrogates)')
    .refine((s) => !CONTROL.test(s), 'must not contain control characters other than tab and line breaks'),
});

/** Adds a comment by a caller who may comment; `remember` (an idempotency key) joins its transaction. */
export async function addComment(
  { caller, viewer }: Who,
  actionId: string,
  body: unknown,
  remember?: (comment: Comment) => GuardedWrite,
): Promise<Comment> {
  const { text } = validateBody(commentBodySchema, body);
  let added: Comment | undefined;
  await mutate(actionId, { caller, viewer, refuses: commenting(viewer), social: true }, nowIso, (current, stamp) => {
    const comment: Comment = { id: uuidv7(), author: caller, text, createdAt: stamp, updatedAt: stamp };
    added = comment;
    return {
      next: {
        ...current,
        comments: [...current.comments, comment].slice(-actionLimits.latestComments),
        commentCount: current.commentCount + 1,
      },
      entry: { type: 'commented', comment: { id: comment.id, author: caller } },
      items: [commentWrites.add(actionId, comment, placementOf(current))],
      ...(remember ? { guarded: remember(comment) } : {}),
    };
  });
  return added as Comment;
}

/** Edits a comment: its author only (who must still see the action). */
export async function editComment(
  { caller, viewer }: Who,
  actionId: string,
  commentId: string,
  body: unknown,
): Promise<Comment> {
  const { text } = validateBody(commentBodySchema, body);
  let edited: Comment | undefined;
  await mutate(actionId, { caller, viewer, social: true }, nowIso, async (current, stamp) => {
    const comment = await readComment(actionId, commentId);
    if (!comment) throw noSuchComment(commentId);
    if (comment.author.id !== caller.id) throw new ForbiddenError('Only the author of a comment may edit it.');
    const updated: Comment = { ...comment, text, updatedAt: stamp };
    edited = updated;
    return {
      next: { ...current, comments: current.comments.map((c) => (c.id === commentId ? updated : c)) },
      entry: { type: 'comment-edited', comment: { id: commentId, author: comment.author } },
      items: [commentWrites.edit(actionId, updated, placementOf(current))],
    };
  });
  return edited as Comment;
}
