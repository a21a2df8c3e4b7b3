import { issueToken } from './issuer';
import { startLocalStack } from './stack';

/** `npm start`: the whole service on http://127.0.0.1:$PORT, data under $DATA_DIR. */
const dataDir = process.env.DATA_DIR || '.data';
const memory = process.env.STORE === 'memory';
const stack = await startLocalStack({ dataDir, memory, port: Number(process.env.PORT || 3000) });
const token = issueToken(stack.issuer, { sub: 'dev-user', name: 'Dev User', email: 'dev@example.com' });

console.log(`Action tracking service on ${stack.url}  (store: ${memory ? 'memory' : `${stack.dataDir}/store`})
Docs:    ${stack.url}/docs
Events:  ${stack.eventsFile}

Try it (token valid for one hour; more with: npm run --silent token -- --sub <id> --name <name>):

  curl -s -H "Authorization: Bearer ${token}" '${stack.url}/api/actions?limit=5'
`);

// Ctrl-C (and a group SIGTERM) reaches this process twice, directly and through tsx: close once.
let stopping: Promise<void> | undefined;
const stop = () => {
  stopping ??= stack.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
