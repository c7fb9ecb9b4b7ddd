// Schema compilers that compile a route's validator on the route's first request instead of at start:
// building ajv and every route's validator is a visible share of a start (docs/decisions.md, D8), and the
// answer a user waits for first (GET /api/plans) has nothing to validate. Validation itself is unchanged:
// the same ajv compiler fastify would use, with the same options, compiled once per route. Once the first
// answers are out, prepare() compiles the rest a turn at a time, so that no later first request holds the
// event loop while ajv loads and compiles (docs/decisions.md, D53).
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';
import { nextSliceTurn } from '../domain/timeSlicer.js';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildValidator = NonNullable<Factories['buildValidator']>;
type BuildSerializer = NonNullable<Factories['buildSerializer']>;
type RouteCompiler = ReturnType<BuildValidator>;
type RouteDefinition = Parameters<RouteCompiler>[0];

interface Validate {
  (data: unknown): unknown;
  errors?: unknown;
}

export interface LazyCompilers {
  factories: Required<Factories>;
  /** Compiles every validator not compiled yet, each in a turn of the event loop of its own; how many. */
  prepare(): Promise<number>;
}

/**
 * fastify's compilers factories; the ajv one is made, and builds its instance, only when first needed
 * (the bundle loads ajv at that moment too: scripts/deferred-modules.js).
 */
export function lazyCompilers(): LazyCompilers {
  let ajvFactory: ReturnType<typeof AjvCompiler> | null = null;
  // Calling it first loads ajv (a deferred module of the bundle).
  const factory = (): ReturnType<typeof AjvCompiler> => (ajvFactory ??= AjvCompiler());
  /** Per fastify's call of buildValidator: its ajv compiler, made when first needed. */
  const makers: (() => RouteCompiler)[] = [];
  /** Validators not compiled yet: each compiles its own when called. */
  const unbuilt = new Set<() => void>();
  const buildValidator = ((externalSchemas: unknown, options: unknown) => {
    let compiler: RouteCompiler | null = null;
    const make = (): RouteCompiler => (compiler ??= (factory() as (e: unknown, o: unknown) => RouteCompiler)(externalSchemas, options));
    makers.push(make);
    return (route: RouteDefinition) => {
      let real: Validate | null = null;
      const build = (): Validate => {
        unbuilt.delete(build);
        return (real ??= make()(route) as Validate);
      };
      unbuilt.add(build);
      // fastify reads `errors` off the function it was given after a failed validation.
      const validate: Validate = (data) => {
        const compiled = build();
        const result = compiled(data);
        validate.errors = compiled.errors;
        return result;
      };
      return validate;
    };
  }) as unknown as BuildValidator;
  // Responses go through the app's one reply serializer (src/http/json.ts), which fastify prefers to
  // per-route ones; fastify still asks for these, and a fast-json-stringify build per route would cost
  // start-up time for nothing. The schemas still document and validate.
  const buildSerializer = (() => () => (data: unknown) => JSON.stringify(data)) as unknown as BuildSerializer;
  const prepare = async (): Promise<number> => {
    const builds = [...unbuilt];
    if (builds.length === 0) return 0;
    // Loading ajv and making its instance are the largest steps: a turn each, then one per validator.
    await nextSliceTurn();
    factory();
    for (const make of makers) {
      await nextSliceTurn();
      make();
    }
    for (const build of builds) {
      await nextSliceTurn();
      build();
    }
    return builds.length;
  };
  return { factories: { buildValidator, buildSerializer }, prepare };
}
