import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The command line every command reads (`npm start`, `token`, `ingest`, `seed`, `recount`,
 * `load`, `bench`, `latency`, `fairness`, `budget-read`, `openapi`, `build:package`,
 * `bundle-sizes`): usage on `--help`, a plain line for a wrong option, and failing with one plain
 * line instead of a stack trace. It imports nothing of the project, so `--help` costs only the
 * command's own imports, and `cdk synth` (which imports `cdk/bundle-sizes.ts`) loads nothing more.
 */

/**
 * A command's options: `--help` (or `-h`) prints `usage` and exits 0 before anything starts; an
 * option the command does not take, or one without its value, is a plain line and the usage's
 * first line, and exit 2. Positionals are the caller's to check.
 */
export function commandLine<const O extends Options>(usage: string, options: O) {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ options, allowPositionals: true, strict: true });
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage.split('\n')[0]}`);
  }
}

/** One line on stderr, then exit: what went wrong and what to do about it. */
export function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}
