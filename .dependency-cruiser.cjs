/**
 * The layers, and the direction they point (../shared/style.md, habit 12). `npm test` runs
 * `depcruise` with these rules, so a wrong-way import fails the build.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'the-console-is-a-client',
      comment:
        'console/ is a client of the public API (contract section 13): its types come from openapi.json, never from lib/ or the handlers.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^(lib|functions|bench|scripts|test|contract)/' },
    },
    {
      name: 'the-console-owns-its-contract',
      comment:
        'The console owns what it is served with (console/headers.ts: its settings type and path, its security headers); infra/ imports it to serve the console, and console/ never imports infra/, so the arrow runs one way.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^infra/' },
    },
    {
      name: 'lib-is-the-bottom',
      comment:
        'lib/ is the domain and what it needs; it never imports the handlers, the infrastructure, the tools (bench/, scripts/), the tests or the oracle.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(functions|infra|test|bench|scripts|contract)/' },
    },
    {
      name: 'handlers-use-lib-only',
      comment: 'A handler wires middy to lib/; it never imports the infrastructure or another handler.',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^(infra|test|bench|scripts|contract)/|^functions/' },
    },
    {
      name: 'infra-does-not-use-the-tools',
      comment: 'infra/ deploys and runs the service; the benchmark and the scripts use it, never the other way.',
      severity: 'error',
      from: { path: '^infra/' },
      to: { path: '^(bench|scripts)/' },
    },
    {
      name: 'the-benchmark-does-not-use-the-scripts',
      comment: "scripts/ may reuse the benchmark's generator (seed, latency); bench/ never imports a script.",
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'only-tests-import-tests',
      comment:
        'test/ holds tests and their helpers; what bench/ or scripts/ share with tests lives outside it (contract/).',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'the-oracle-stands-alone',
      comment: 'contract/ reads the contract on its own, sharing no code with the service it checks.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(lib|functions|infra|bench|scripts|test)/' },
    },
    {
      name: 'only-the-store-speaks-dynamodb',
      comment:
        "Only lib/store/ (and infra/, which runs DynamoDB Local and its stream) imports the DynamoDB SDK; bench/ and scripts/ go through the store. The benchmark's instruments, which measure what DynamoDB charges, live in lib/store/measure/.",
      severity: 'error',
      from: {
        path: '^(lib|functions|bench|scripts|contract)/',
        pathNot: '^lib/store/',
      },
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
      name: 'the-model-is-pure',
      comment:
        'lib/model/ says what an action is, how a body is checked and how an action changes; it uses only the dates, errors and text helpers, never the store, the config or the use cases.',
      severity: 'error',
      from: { path: '^lib/model/' },
      to: { path: '^lib/|^node:', pathNot: '^lib/(model/|dates\\.ts$|errors\\.ts$|text\\.ts$)' },
    },
    {
      name: 'the-domain-does-not-see-keys',
      comment: 'The domain reaches the store through its functions, never its table layout.',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/store/' },
      to: { path: '^lib/store/(table|item|client|list/plan/expression)\\.ts$' },
    },
    {
      name: 'the-store-is-below-the-use-cases',
      comment:
        'lib/store/ serves the capability folders (actions, access, http, api-docs, due-dates, webhooks) and never imports them: the pure rules it needs live beside the model or at the top of lib/ (../shared/style.md, habit 17).',
      severity: 'error',
      from: { path: '^lib/store/' },
      to: { path: '^lib/(actions|access|http|api-docs|due-dates|webhooks)/' },
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
    // node_modules is not followed, but not excluded either: an excluded module drops the import
    // of it, and then no rule about a package (the DynamoDB SDK) could ever fire.
    exclude: { path: '^(cdk\\.out|coverage|\\.data)/' },
  },
};
