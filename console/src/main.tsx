import { render } from 'preact';
import '../styles.css';
import { App } from './App';
import { connect } from './api';
import { startSession } from './auth';
import { loadConfig } from './config';
import { loadMe } from './me';
import { loadTimeZone } from './notifications/time-zone';
import { address } from './router';

/** Reads the settings, signs in (or finishes signing in), then shows the screen the address names. */
async function start() {
  const root = document.getElementById('app') as HTMLElement;
  try {
    const config = await loadConfig();
    connect(config);
    await startSession(config);
    // Who the person is to the API and their time zone arrive beside the first screen, which they refine.
    void loadMe();
    void loadTimeZone();
    address.value = new URL(location.href);
    root.replaceChildren();
    render(<App />, root);
  } catch (error) {
    const message = document.createElement('p');
    message.setAttribute('role', 'alert');
    message.textContent = `The console could not start: ${error instanceof Error ? error.message : String(error)}`;
    root.replaceChildren(message);
  }
}

void start();
