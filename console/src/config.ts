import { CONSOLE_CONFIG_PATH, type ConsoleConfig } from '../headers';

/** Reads the runtime settings the site serves beside `index.html` (the same file locally and in AWS). */
export async function loadConfig(): Promise<ConsoleConfig> {
  const response = await fetch(CONSOLE_CONFIG_PATH, { cache: 'no-store' });
  if (!response.ok) throw new Error(`The console's settings (${CONSOLE_CONFIG_PATH}) answered ${response.status}.`);
  return (await response.json()) as ConsoleConfig;
}
