import { signal } from '@preact/signals';

/**
 * What the last thing a person did came to ("Saved.", "Endorsed.", "Photo added."), said in
 * the screen's one status region, so each part of a screen reports without holding the words.
 */
export const notice = signal('');

export function announce(message: string): void {
  notice.value = message;
}
