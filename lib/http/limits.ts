/**
 * Request limits shared by the HTTP edge and the API description. The other limits are named for
 * what they bound: `actionLimits` (lib/model/action.ts), `queryLimits` (lib/filter/query.ts),
 * `threadLimits` (lib/filter/page-query.ts), `changesLimits` (lib/actions/changes.ts) and the per-caller quotas
 * (lib/http/quotas.ts).
 */

/** Larger bodies are refused with 413 before any parsing. */
export const MAX_BODY_BYTES = 64 * 1024;
