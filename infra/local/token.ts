import { parseArgs } from 'node:util';
import { ensureIssuer, issueToken } from './issuer';

/** `npm run --silent token -- --sub <id> --name <name> --email <email> [--expires-in <s>]`: prints one token. */
const { values } = parseArgs({
  options: {
    sub: { type: 'string', default: 'dev-user' },
    name: { type: 'string' },
    email: { type: 'string' },
    'expires-in': { type: 'string', default: '3600' },
  },
});
const expiresIn = Number(values['expires-in']);
if (!Number.isInteger(expiresIn) || expiresIn <= 0) {
  console.error('--expires-in must be a positive whole number of seconds');
  process.exit(2);
}
const issuer = ensureIssuer(process.env.DATA_DIR || '.data');
process.stdout.write(
  `${issueToken(issuer, { sub: values.sub as string, name: values.name, email: values.email }, expiresIn)}\n`,
);
