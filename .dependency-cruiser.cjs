/**
 * The layers, and the direction they point (../shared/style.md, habit 12). `npm test` runs
 * `depcruise` with these rules, so a wrong-way import fails the build.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'lib-is-the-bottom',
      comment: 'lib/ is the domain and what it needs; it never imports the handlers or the infrastructure.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(functions|infra|test|bench|scripts)/' },
    },
    {
      name: 'handlers-use-lib-only',
      comment: 'A handler wires middy to lib/; it never imports the infrastructure or another handler.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^(infra|test|bench|scripts)/|^functions/' },
    },
    {
      name: 'only-the-store-speaks-dynamodb',
      comment: 'Inside lib/, only lib/store/ imports the DynamoDB SDK.',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/store/' },
      to: { path: '@aws-sdk/(client-dynamodb|lib-dynamodb|util-dynamodb|client-dynamodb-streams)' },
    },
    {
      name: 'the-query-language-is-pure',
      comment: 'lib/filter/ turns query strings into filter trees; it knows nothing of how they are stored.',
      severity: 'error',
      from: { path: '^lib/filter/' },
      to: { path: '^lib/store/|^node:' },
    },
    {
      name: 'the-domain-does-not-see-keys',
      comment: 'The domain reaches the store through its functions, never its table layout.',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/store/' },
      to: { path: '^lib/store/(table|item|client|expression)\\.ts$' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|cdk\\.out|coverage|\\.data)/' },
  },
};
