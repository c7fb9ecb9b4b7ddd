// Schema compilers that compile a route's validator on the route's first request instead of at start.
// Building ajv and compiling every route's schemas took ~40 ms of a start (CPU profile), and the answer a user
// waits for first (GET /api/plans) has nothing to validate. Validation itself is unchanged: the same
// ajv compiler fastify would use, with the same options, compiled once per route.
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

/** Returns fastify's compilers factories; the ajv one builds its instance only when first needed. */
export function lazyCompilers(): Required<Factories> {
  const ajvFactory = AjvCompiler();
  const buildValidator = ((externalSchemas: unknown, options: unknown) => {
    let compiler: RouteCompiler | null = null;
    return (route: RouteDefinition) => {
      let real: Validate | null = null;
      // fastify reads `errors` off the function it was given after a failed validation.
      const validate: Validate = (data) => {
        compiler ??= (ajvFactory as (e: unknown, o: unknown) => RouteCompiler)(externalSchemas, options);
        real ??= compiler(route) as Validate;
        const result = real(data);
        validate.errors = real.errors;
        return result;
      };
      return validate;
    };
  }) as unknown as BuildValidator;
  // Responses are plain JSON.stringify: the big bodies (the plan list, the memory listing) are serialized
  // once per change by the routes themselves, and a fast-json-stringify serializer per route cost ~100 ms
  // of every start for small bodies. The schemas still document and validate.
  const buildSerializer = (() => () => (data: unknown) => JSON.stringify(data)) as unknown as BuildSerializer;
  return { buildValidator, buildSerializer };
}
