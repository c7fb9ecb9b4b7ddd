// Schema compilers that compile a route's validator on the route's first request instead of at start:
// building ajv and every route's validator is a visible share of a start (docs/decisions.md, D8), and the
// answer a user waits for first (GET /api/plans) has nothing to validate. Validation itself is unchanged:
// the same ajv compiler fastify would use, with the same options, compiled once per route.
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildValidator = NonNullable<Factories['buildValidator']>;
type BuildSerializer = NonNullable<Factories['buildSerializer']>;
type RouteCompiler = ReturnType<BuildValidator>;
type RouteDefinition = Parameters<RouteCompiler>[0];

interface Validate {
  (data: unknown): unknown;
  errors?: unknown;
}

/**
 * Returns fastify's compilers factories; the ajv one is made, and builds its instance, only when first
 * needed (the bundle loads ajv at that moment too: scripts/deferred-modules.js).
 */
export function lazyCompilers(): Required<Factories> {
  let ajvFactory: ReturnType<typeof AjvCompiler> | null = null;
  const buildValidator = ((externalSchemas: unknown, options: unknown) => {
    let compiler: RouteCompiler | null = null;
    return (route: RouteDefinition) => {
      let real: Validate | null = null;
      // fastify reads `errors` off the function it was given after a failed validation.
      const validate: Validate = (data) => {
        ajvFactory ??= AjvCompiler();
        compiler ??= (ajvFactory as (e: unknown, o: unknown) => RouteCompiler)(externalSchemas, options);
        real ??= compiler(route) as Validate;
        const result = real(data);
        validate.errors = real.errors;
        return result;
      };
      return validate;
    };
  }) as unknown as BuildValidator;
  // Responses go through the app's one reply serializer (src/http/json.ts), which fastify prefers to
  // per-route ones; fastify still asks for these, and a fast-json-stringify build per route would cost
  // start-up time for nothing. The schemas still document and validate.
  const buildSerializer = (() => () => (data: unknown) => JSON.stringify(data)) as unknown as BuildSerializer;
  return { buildValidator, buildSerializer };
}
