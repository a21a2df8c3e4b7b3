import type { FunctionComponent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ACCOUNT_SCREENS, LIST_VIEWS, type ListView, type Screen, screenOf, TOOL_SCREENS } from '../routes';
import { ActionList } from './ActionList';
import { PeopleAndAccess } from './access/PeopleAndAccess';
import { ActionPage } from './action/ActionPage';
import { retryNotice } from './api';
import { person, signOut } from './auth';
import { ImportScreen } from './import/ImportScreen';
import { isAdmin, me } from './me';
import { NewAction } from './NewAction';
import { Notifications } from './notifications/Notifications';
import { address, navigate } from './router';

/** A screen's name for the window's title (an action's page names its action itself). */
function titleOf(screen: Screen | undefined): string {
  if (!screen) return 'Not found';
  if (screen.name === 'list') return LIST_VIEWS[screen.view].label;
  if (screen.name === 'new') return 'New action';
  if (screen.name === 'action') return 'Action';
  if (screen.name === 'overview' || screen.name === 'import') return TOOL_SCREENS[screen.name].label;
  return ACCOUNT_SCREENS[screen.name].label;
}

/**
 * The Overview and its charts are a chunk of their own (esbuild splits at `import()`), loaded
 * the first time the screen opens, so no other screen pays for them.
 */
function LazyOverview() {
  const [Overview, setOverview] = useState<FunctionComponent | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    import('./overview/Overview').then(
      (module) => setOverview(() => module.Overview),
      () => setFailed(true),
    );
  }, []);
  if (Overview) return <Overview />;
  return (
    <>
      <h1 tabIndex={-1}>Overview</h1>
      <p class="count" role={failed ? 'alert' : undefined} aria-live="polite">
        {failed ? 'The Overview could not be loaded. Reload the page to try again.' : 'Loading…'}
      </p>
    </>
  );
}

/** The frame of every screen: header with search and who is signed in, the lists' navigation, the screen. */
export function App() {
  const { pathname, search } = address.value;
  const screen = screenOf(pathname);
  const view = screen?.name === 'list' ? screen.view : undefined;
  const first = useRef(true);

  useEffect(() => {
    if (screen?.name !== 'action') document.title = `${titleOf(screen)} · Actions`;
    // A new screen (not the first) moves focus to its heading, so a screen reader announces it.
    const opened = first.current;
    first.current = false;
    if (opened) return;
    if (document.activeElement === document.body || document.activeElement?.closest('nav, header')) {
      const heading = document.querySelector<HTMLElement>('main h1');
      heading?.focus({ preventScroll: true });
    }
  }, [pathname, search]);

  const search_ = (event: Event) => {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget as HTMLFormElement).get('q') ?? '').trim();
    navigate(`${LIST_VIEWS.all.path}${q ? `?${new URLSearchParams({ q })}` : ''}`);
  };

  return (
    <div class="shell">
      <header class="top">
        <a class="brand" href="/">
          Actions
        </a>
        <search class="search">
          <form onSubmit={search_}>
            <input
              type="search"
              name="q"
              aria-label="Search actions"
              placeholder="Search titles"
              key={search}
              defaultValue={address.value.searchParams.get('q') ?? ''}
            />
            <button type="submit">Search</button>
          </form>
        </search>
        <div class="who">
          <span>{person.value?.name}</span>
          <nav aria-label="Account">
            <ul>
              <li>
                <a
                  href={ACCOUNT_SCREENS.notifications.path}
                  aria-current={screen?.name === 'notifications' ? 'page' : undefined}
                >
                  {ACCOUNT_SCREENS.notifications.label}
                </a>
              </li>
              {isAdmin(me.value) ? (
                <li>
                  <a href={ACCOUNT_SCREENS.access.path} aria-current={screen?.name === 'access' ? 'page' : undefined}>
                    {ACCOUNT_SCREENS.access.label}
                  </a>
                </li>
              ) : null}
            </ul>
          </nav>
          <button type="button" class="secondary" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <nav aria-label="Lists" class="lists">
        <ul>
          <li>
            <a href={TOOL_SCREENS.overview.path} aria-current={screen?.name === 'overview' ? 'page' : undefined}>
              {TOOL_SCREENS.overview.label}
            </a>
          </li>
          {(Object.entries(LIST_VIEWS) as [ListView, (typeof LIST_VIEWS)[ListView]][]).map(
            ([name, { path, label }]) => (
              <li key={name}>
                <a href={path} aria-current={view === name ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ),
          )}
          <li>
            <a href={TOOL_SCREENS.import.path} aria-current={screen?.name === 'import' ? 'page' : undefined}>
              {TOOL_SCREENS.import.label}
            </a>
          </li>
        </ul>
        <button type="button" class="new" onClick={() => navigate('/new')}>
          New action
        </button>
      </nav>
      {retryNotice.value ? (
        <p role="status" class="retry">
          {retryNotice.value}
        </p>
      ) : null}
      <main id="main">
        {screen?.name === 'list' ? (
          <ActionList view={screen.view} />
        ) : screen?.name === 'action' ? (
          <ActionPage key={screen.id} id={screen.id} />
        ) : screen?.name === 'overview' ? (
          <LazyOverview />
        ) : screen?.name === 'import' ? (
          <ImportScreen />
        ) : screen?.name === 'new' ? (
          <NewAction />
        ) : screen?.name === 'notifications' ? (
          <Notifications />
        ) : screen?.name === 'access' ? (
          <PeopleAndAccess />
        ) : (
          <>
            <h1 tabIndex={-1}>Not found</h1>
            <p>
              Nothing is shown at this address. <a href="/">My actions</a>
            </p>
          </>
        )}
      </main>
    </div>
  );
}
