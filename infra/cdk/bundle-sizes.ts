import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { commandLine } from '../command-line';

/**
 * The most a minified function bundle may weigh, AWS SDK included (issue 54 item 5, measured by
 * `npm run synth && npm run bundle-sizes`; docs/bundles.md says what each carries and why):
 * - 400 KB for every function but the four below; the heaviest, updateAction and getAttachment,
 *   about 399 KB. The SDK clients' schemas are bundled with literal keys (`literalSchemaKeys`,
 *   infra/bundling.ts), so S3 and SES v2 bring only the operations a function sends, and the
 *   bodies that S3 functions validate are `zod/mini` schemas (about 13 KB, not classic's 85 KB);
 * - 440 KB for creating and attaching an upload (createUpload about 417 KB, attachUpload about
 *   432 KB): the S3 client's shared core (`@smithy/core`, 135 KB with both clients) beside
 *   DynamoDB's, the store and the checks of a stored file;
 * - 1,620 KB for the export and import workers, which carry exceljs and its zip libraries (about
 *   1 MB minified; importActions about 1,606 KB). They run from a queue, never on a request's
 *   path, so their cold start is no one's wait.
 */
const BUNDLE_BUDGET_BYTES = 400 * 1024;
const UPLOAD_BUDGET_BYTES = 440 * 1024;
const WORKER_BUDGET_BYTES = 1620 * 1024;
const uploads = ['createUpload', 'attachUpload'];
const workers = ['runExports', 'importActions'];

const isOne = (fn: string, handlers: readonly string[]) => handlers.some((handler) => fn === `functions/${handler}.ts`);

/** The budget of one function, by its entry (`functions/<handler>.ts`). */
export const budgetOf = (fn: string): number =>
  isOne(fn, workers) ? WORKER_BUDGET_BYTES : isOne(fn, uploads) ? UPLOAD_BUDGET_BYTES : BUNDLE_BUDGET_BYTES;

export interface BundleSize {
  /** The function's description (its entry, `functions/<handler>.ts`) or else its logical id. */
  function: string;
  bytes: number;
}

interface FunctionResource {
  Type: string;
  Metadata?: Record<string, string>;
  Properties?: { Description?: string };
}

/**
 * The size of every bundled Lambda function in a synthesized cloud assembly, read from the
 * staged assets themselves, so it measures exactly what `cdk deploy` uploads. Functions whose
 * bundling was skipped (their asset is not a bundle) are left out.
 */
export function bundleSizes(assembly: CloudAssembly): BundleSize[] {
  const sizes: BundleSize[] = [];
  for (const stack of assembly.stacksRecursively) {
    const resources = (stack.template.Resources ?? {}) as Record<string, FunctionResource>;
    for (const [logicalId, resource] of Object.entries(resources)) {
      const assetPath = resource.Metadata?.['aws:asset:path'];
      if (resource.Type !== 'AWS::Lambda::Function' || !assetPath) continue;
      const bundle = join(stack.assembly.directory, assetPath, 'index.mjs');
      if (!existsSync(bundle)) continue;
      sizes.push({ function: resource.Properties?.Description ?? logicalId, bytes: statSync(bundle).size });
    }
  }
  return sizes;
}

/** Prints one line per bundle; returns whether every bundle is within the budget. */
export function printBundleSizes(sizes: readonly BundleSize[], write = (line: string) => console.error(line)): boolean {
  const width = Math.max(0, ...sizes.map((s) => s.function.length));
  for (const size of sizes) {
    const budget = budgetOf(size.function);
    const over = size.bytes > budget ? `  OVER the ${budget / 1024} KB budget` : '';
    write(`${size.function.padEnd(width)}  ${(size.bytes / 1024).toFixed(1).padStart(6)} KB${over}`);
  }
  return sizes.every((s) => s.bytes <= budgetOf(s.function));
}

// `tsx infra/cdk/bundle-sizes.ts [cdk.out]`: report on an assembly `cdk synth` wrote; exit 1 when over budget.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { positionals } = commandLine(
    `usage: npm run bundle-sizes

Prints the size of every function bundle in the assembly \`cdk synth\` wrote (default cdk.out);
exits 1 when one is over the ${BUNDLE_BUDGET_BYTES / 1024} KB budget.`,
    {},
  );
  const sizes = bundleSizes(new CloudAssembly(positionals[0] ?? 'cdk.out'));
  if (sizes.length === 0) {
    console.error('No bundled functions found: run `npx cdk synth` first.');
    process.exit(1);
  }
  process.exit(printBundleSizes(sizes) ? 0 : 1);
}
