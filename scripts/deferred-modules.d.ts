// Types of deferred-modules.js, for the tests that build with it.
import type { Plugin } from 'esbuild';

export const BUNDLED_APART: readonly string[];
export function libFile(specifier: string): string;
export function deferModules(specifiers?: readonly string[]): Plugin;
