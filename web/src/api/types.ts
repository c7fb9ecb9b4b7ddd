// The JSON shapes of the service: the types of its schemas in src/contract/ (type-only: nothing from
// src/ ends up in the bundle). Every type the contract exports is available here.
export type * from '../../../src/contract/shapes';
export type * from '../../../src/contract/endpoints';
export type * from '../../../src/contract/find';
export type * from '../../../src/contract/history';
export type * from '../../../src/contract/status';
export type * from '../../../src/contract/outcome';
export type * from '../../../src/contract/memoryHistory';
export type * from '../../../src/contract/memoryChanges';
export type * from '../../../src/contract/transcript';
export type * from '../../../src/contract/sessionMemory';
export type * from '../../../src/contract/costs';
export type * from '../../../src/contract/promptHistory';
