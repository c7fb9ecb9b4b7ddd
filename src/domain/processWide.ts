// State that must exist once per process. The built service carries some modules in two bundles
// (dist/app.cjs and dist/server.cjs each hold a copy), so module-level state would be two states: a
// queue that should order every large read in the process would order only half of them. Such state is
// kept on globalThis under a registry symbol, which every copy of the module finds.

/** The one `T` of this process named `name`, made by `make` on first use. */
export function processWide<T extends object>(name: string, make: () => T): T {
  const key = Symbol.for(`plan-memory-viewer:${name}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  return (store[key] ??= make());
}
