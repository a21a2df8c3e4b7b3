import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commandLine, fail } from '../command-line';
import { dataDirectory, noStackRuns } from './cli';
import { ensureIssuer, issueToken } from './issuer';
import { runningStack } from './stack';

const { values } = commandLine(
  `usage: npm run --silent token -- --sub <id> --name <name> --email <email> [--groups <a,b>] [--expires-in <seconds>]

Prints one bearer token (and nothing else on stdout) that the stack running on the same DATA_DIR
accepts, shaped like a Cognito ID token (email_verified: true when --email is given; --groups
puts the comma-separated Cognito groups in its cognito:groups claim, e.g. --groups action-admins).`,
  {
    sub: { type: 'string', default: 'dev-user' },
    name: { type: 'string' },
    email: { type: 'string' },
    groups: { type: 'string' },
    'expires-in': { type: 'string', default: '3600' },
  },
);
const expiresIn = Number(values['expires-in']);
if (!Number.isInteger(expiresIn) || expiresIn <= 0) fail('--expires-in must be a positive whole number of seconds.');
const groups = (values.groups ?? '')
  .split(',')
  .map((group) => group.trim())
  .filter((group) => group !== '');

const { dataDir } = dataDirectory();
const keysExist = existsSync(join(dataDir, 'issuer-key.json'));
if (!(await runningStack(dataDir))) {
  // Keys made now would match no server: say so instead of printing a token every call refuses.
  if (!keysExist) fail(`${noStackRuns(dataDir, 'token')} (It holds no token keys yet.)`);
  console.error(`Note: no stack runs on DATA_DIR=${dataDir} now; this token is for the one that starts there.`);
}
const issuer = ensureIssuer(dataDir);
process.stdout.write(
  `${issueToken(issuer, { sub: values.sub as string, name: values.name, email: values.email, groups }, expiresIn)}\n`,
);
