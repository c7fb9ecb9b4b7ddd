// Modules a start does not run, kept out of the bundles a start compiles (docs/decisions.md, D48). Without a
// compile cache (Node 20) a start parses every byte of app.cjs and server.cjs; about half of those bytes were
// libraries the first answer never runs (fast-json-stringify, light-my-request, pino), or runs only because a
// module that loads them asks for them at its top (yaml for @fastify/swagger and the frontmatter parser, ajv
// through @fastify/ajv-compiler).
//
// Each one is bundled apart into dist/lib/<name>.cjs. In the other bundles an import of it is a stand-in with
// the module's own export names, read here at build time from the module itself; the stand-in requires the
// real module the first time one of them is read or the stand-in is called, so code that only holds on to
// the module (as `const yaml = require('yaml')` and `import { parse } from 'yaml'` do) loads nothing. Node
// built-ins are deferred the same way, from Node's own module.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** What is deferred: packages bundled apart, and Node built-ins. */
const DEFERRED = [
  // The route validators' compiler (ajv): lazyCompilers.ts makes it on a route's first request.
  '@fastify/ajv-compiler',
  // fastify's own default compilers, never used: the server gives its own (lazyCompilers.ts).
  '@fastify/fast-json-stringify-compiler',
  // fastify.inject(), which the service never calls.
  'light-my-request',
  // fastify's logger, off in the service.
  'pino',
  // Frontmatter that is not flat `key: value` lines, and the OpenAPI document as YAML.
  'yaml',
  // fastify loads them for TLS and HTTP/2 servers, which the service never creates.
  'node:https',
  'node:http2',
];

const isBuiltin = (specifier) => specifier.startsWith('node:');

/** The packages bundled apart (built-ins stay Node's). */
export const BUNDLED_APART = DEFERRED.filter((specifier) => !isBuiltin(specifier));

/** The file a package bundled apart becomes, relative to the bundles that use it. */
export function libFile(specifier) {
  return `lib/${specifier.replace(/^@/, '').replace(/\//g, '-')}.cjs`;
}

/** What every function has of its own (`arguments` and `caller` only when it is not strict). */
const FUNCTION_OWN = new Set(['length', 'name', 'prototype', 'arguments', 'caller']);

/** Names the stand-in must answer: every own property of the real module but a function's own. */
function exportNames(real) {
  const own = Object.getOwnPropertyNames(real).filter((key) => key !== '__esModule');
  return typeof real === 'function' ? own.filter((key) => !FUNCTION_OWN.has(key)) : own;
}

/** The source of a stand-in for `real` (the module's value now) that requires `target` on first use. */
function standInSource(real, target) {
  const callable = typeof real === 'function';
  return `let real;
const load = () => (real ??= require(${JSON.stringify(target)}));
const standIn = ${callable
    ? 'function (...args) { return new.target ? new (load())(...args) : Reflect.apply(load(), this, args); }'
    : '{}'};
${real.__esModule ? "Object.defineProperty(standIn, '__esModule', { value: true });\n" : ''}for (const key of ${JSON.stringify(exportNames(real))}) {
  Object.defineProperty(standIn, key, { get: () => load()[key], enumerable: true, configurable: true });
}
module.exports = standIn;
`;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The esbuild plugin that puts stand-ins in place of `specifiers`: a package's stand-in requires
 * `lib/<name>.cjs` beside the bundle (libFile), a built-in's the built-in.
 */
export function deferModules(specifiers = DEFERRED) {
  return {
    name: 'defer-modules',
    setup(build) {
      // What a stand-in requires is found at run time.
      build.onResolve({ filter: /.*/, namespace: 'deferred' }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: new RegExp(`^(${specifiers.map(escape).join('|')})$`) }, async (args) => {
        if (args.pluginData?.deferring) return undefined;
        // The module the import would have bundled, found as esbuild finds it, is where the names come from.
        if (isBuiltin(args.path)) return { path: args.path, namespace: 'deferred', pluginData: { file: args.path } };
        const found = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: { deferring: true } });
        if (found.errors.length > 0) return { errors: found.errors };
        return { path: args.path, namespace: 'deferred', pluginData: { file: found.path } };
      });
      build.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => ({
        contents: standInSource(require(args.pluginData.file), isBuiltin(args.path) ? args.path : `./${libFile(args.path)}`),
        loader: 'js',
      }));
    },
  };
}
