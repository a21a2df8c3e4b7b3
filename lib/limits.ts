/** Request limits shared by the HTTP edge and the API description. */

/** Larger bodies are refused with 413 before any parsing. */
export const MAX_BODY_BYTES = 64 * 1024;
