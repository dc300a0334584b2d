#!/usr/bin/env node
// api-docs.mjs: the JavaScript API reference (docs/reference/) from the package's type declarations.
//
//   node build-scripts/api-docs.mjs [--out DIR]
//
// TypeDoc (with its Markdown theme) reads js-glue/index.d.ts and js-glue/babylon.d.ts, the files users'
// editors read, and writes one Markdown page per entry point and per declaration. Every export must have
// a doc comment: a missing one, a broken link or any other TypeDoc warning fails the run (exit 1).
// tests/node/api-docs.test.mjs runs it into a temporary folder and checks that docs/reference/ is what
// it writes. TypeDoc needs TypeScript 5, which the workspace build-scripts/api-docs/ installs beside
// the TypeScript 7 of the package tests.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--out');
const OUT = resolve(at >= 0 ? args[at + 1] : join(ROOT, 'docs/reference'));

const require = createRequire(join(ROOT, 'build-scripts/api-docs/package.json'));
const { Application, LogLevel } = await import(require.resolve('typedoc'));

const app = await Application.bootstrapWithPlugins({
  entryPoints: [join(ROOT, 'js-glue/index.d.ts'), join(ROOT, 'js-glue/babylon.d.ts')],
  entryPointStrategy: 'resolve',
  tsconfig: join(ROOT, 'build-scripts/api-docs/tsconfig.json'),
  plugin: [require.resolve('typedoc-plugin-markdown')],
  out: OUT,
  readme: 'none',
  name: 'procmotion',
  disableSources: true,
  disableGit: true,
  hideGenerator: true,
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  sort: ['source-order'],
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  // every export and every method; fields where their name alone does not say it
  requiredToBeDocumented: ['Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias', 'Method', 'Accessor', 'Constructor'],
  treatWarningsAsErrors: true,
  logLevel: LogLevel.Warn,
  // the Markdown theme
  entryFileName: 'README.md',
  outputFileStrategy: 'modules',
  hidePageHeader: true,
  hideBreadcrumbs: true,
  useCodeBlocks: true,
  parametersFormat: 'table',
  interfacePropertiesFormat: 'table',
  typeDeclarationFormat: 'table',
});
const project = await app.convert();
if (!project) process.exit(1);
app.validate(project);
if (app.logger.hasErrors() || app.logger.hasWarnings()) process.exit(1);
await app.generateOutputs(project);
if (app.logger.hasErrors() || app.logger.hasWarnings()) process.exit(1);
console.log(`api-docs: wrote ${OUT}`);
