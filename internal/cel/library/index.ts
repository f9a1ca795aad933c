// Kubernetes' CEL libraries (as kube-apiserver 1.28's base environment has them) as
// @bufbuild/cel function definitions, with their costs.
//
// Contract for the CEL core (internal/cel):
//   - `kubernetesLibraries` goes into celEnv({ funcs }) as is: lists, regex, URLs, quantity,
//     authorizer, and cel-go's strings extension (@bufbuild/cel/ext's, a superset of the
//     version-0 strings kube 1.28 has: it also has format, quote and join; its replace and
//     split are replaced by Go-faithful ones, strings-fixes.ts). Opaque values (URL,
//     Quantity, the authorizer builders, Decision) are protobuf messages named as kube names its
//     types (`kubernetes.URL`, `kubernetes.authorization.Authorizer`, ...); `libraryTypes`
//     gives their CEL types, e.g. to declare the `authorizer` variable.
//   - `libraryCosts` maps a function name to its runtime cost: called after each call of that
//     name with the receiver-first arguments and the result, it returns the units to charge,
//     or undefined for the default (1). `libraryCostEstimates` maps a name to the static
//     estimate from the size ranges of receiver and arguments (undefined: default estimate).
//     Both follow kube's library/cost.go, the only place kube's CEL library costs are defined.
//   - The authorizer needs passes over one evaluation: see authorizer.ts. Build the
//     `authorizer` variable with `authorizerValue(cache, requestResource?)`; after a pass,
//     `pendingAuthorizations(cache)` lists checks to ask and `fillDecisions(cache, authorizer)`
//     asks them; evaluate again until nothing is pending. Only the last pass's cost counts.
//   - Errors are CelErrors with kube's texts ("min called on empty list", "Illegal regex: ...",
//     "URL parse error during conversion from string: ...", "cannot convert value to integer").
import { strings } from '@bufbuild/cel/ext';
import type { CelFunc } from '@bufbuild/cel';
import { listsLibrary } from './lists.ts';
import { regexLibrary } from './regex.ts';
import { urlsLibrary } from './urls.ts';
import { quantityLibrary } from './quantity.ts';
import { authorizerLibrary } from './authorizer.ts';
import { stringsFixes } from './strings-fixes.ts';

export { listsLibrary } from './lists.ts';
export { regexLibrary } from './regex.ts';
export { urlsLibrary } from './urls.ts';
export { quantityLibrary } from './quantity.ts';
export {
  authorizerLibrary,
  authorizerValue,
  checkKey,
  DecisionCache,
  fillDecisions,
  isPendingAuthorization,
  pendingAuthorizations,
  type AuthorizationCheck,
  type AuthorizationDecision,
  type CelAuthorizer,
  type RequestResource,
} from './authorizer.ts';
export { libraryTypes } from './types.ts';
export {
  actualSize,
  authorizationCheckCost,
  libraryCostEstimates,
  libraryCosts,
  regexStringLengthCostFactor,
  stringTraversalCostFactor,
  traversalCost,
  type CallEstimate,
  type EstimatedCallCost,
  type EstimateNode,
  type RuntimeCallCost,
  type SizeRange,
} from './costs.ts';

/** Every library function kube-apiserver 1.28 offers CEL expressions, for celEnv({ funcs }). */
export const kubernetesLibraries: readonly CelFunc[] = [
  ...strings,
  ...stringsFixes,
  ...listsLibrary,
  ...regexLibrary,
  ...urlsLibrary,
  ...quantityLibrary,
  ...authorizerLibrary,
];
