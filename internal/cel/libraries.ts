// The Kubernetes function libraries (lists, regex, URLs, quantity, authorizer, and the strings
// extension) with their runtime costs and static estimates. They live in ./library/; this file
// is the one place the engine reads them.
import type { CelFunc } from '@bufbuild/cel';
import { kubernetesLibraries, libraryCostEstimates, libraryCosts, type EstimatedCallCost, type RuntimeCallCost } from './library/index.ts';

/** The library functions registered in every environment. */
export const libraryFunctions: readonly CelFunc[] = kubernetesLibraries;

/** Runtime costs of library functions by name (receiver first, then arguments, and the result); undefined means the built-in table. */
export const libraryRuntimeCosts: ReadonlyMap<string, RuntimeCallCost> = libraryCosts;

/** Static estimates of library functions by name; undefined means the built-in table. */
export const libraryEstimates: ReadonlyMap<string, EstimatedCallCost> = libraryCostEstimates;
