import { signal } from '@preact/signals';

/**
 * The address is the console's state: screens read the path and query from here, and moving
 * between screens pushes a new address (the browser's back button and a copied link both work).
 */
export const address = signal(new URL(location.href));

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  address.value = new URL(location.href);
  if (!replace) window.scrollTo(0, 0);
}

addEventListener('popstate', () => {
  address.value = new URL(location.href);
});

/** Same-origin links move within the page instead of reloading it. */
function onLinkClick(event: MouseEvent): void {
  const link = (event.target as Element | null)?.closest?.('a');
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const url = new URL(link.href, location.href);
  if (
    url.origin !== location.origin ||
    link.target ||
    url.pathname.startsWith('/api') ||
    url.pathname.startsWith('/docs')
  )
    return;
  event.preventDefault();
  navigate(url.pathname + url.search);
}

document.addEventListener('click', onLinkClick);
