import { issueToken } from './issuer';
import { type StoreKind, startLocalStack } from './stack';

/** `npm start`: the whole service on http://127.0.0.1:$PORT, data under $DATA_DIR. */
const dataDir = process.env.DATA_DIR || '.data';
const store = (process.env.STORE || 'disk') as StoreKind;
if (!['disk', 'memory', 'dynamodb-local'].includes(store)) {
  console.error(`STORE must be memory or dynamodb-local (or unset for the disk store), not '${store}'`);
  process.exit(2);
}
const stack = await startLocalStack({ dataDir, store, port: Number(process.env.PORT || 3000) });
const token = issueToken(stack.issuer, { sub: 'dev-user', name: 'Dev User', email: 'dev@example.com' });

console.log(`Action tracking service on ${stack.url}  (store: ${store === 'disk' ? `${stack.dataDir}/store` : store})
Docs:    ${stack.url}/docs
Events:  ${stack.eventsFile}

Try it (token valid for one hour; more with: npm run --silent token -- --sub <id> --name <name>):

  curl -s -H "Authorization: Bearer ${token}" '${stack.url}/api/actions?limit=5'
`);

// Ctrl-C (and a group SIGTERM) reaches this process twice, directly and through tsx: close once.
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void stack.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
