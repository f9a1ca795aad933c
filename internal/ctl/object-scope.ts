// The namespace flags of object commands (-n, -A) and what they mean for a resource.
import { booleanOption, stringOption, type OptionSpec, type ParsedArgs } from './args.ts';
import { CtlError } from './command.ts';
import type { ApiResource } from './discovery.ts';

/** -n/--namespace and -A/--all-namespaces. */
export const namespaceOptions: OptionSpec = {
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A' },
};

/** Their --help lines. */
export const namespaceUsage = `  -n, --namespace NS         the namespace (default: the context's, else default)
  -A, --all-namespaces       every namespace`;

/** Where an object command works. */
export interface NamespaceScope {
  /** The namespace asked for (-n, else the context's). */
  readonly namespace: string;
  readonly allNamespaces: boolean;
}

/** Reads -n and -A; both together is a usage error. */
export function namespaceScope(command: string, parsed: ParsedArgs, contextNamespace: string, allowAll: boolean): NamespaceScope {
  const namespace = stringOption(parsed, 'namespace');
  const allNamespaces = booleanOption(parsed, 'all-namespaces');
  if (allNamespaces && !allowAll) throw new CtlError(`orchctl ${command}: -A lists every namespace; it does not go with object names`, 2);
  if (namespace !== undefined && allNamespaces) throw new CtlError(`orchctl ${command}: give -n or -A, not both`, 2);
  if (namespace === '') throw new CtlError(`orchctl ${command}: -n needs a namespace name`, 2);
  return { namespace: namespace ?? contextNamespace, allNamespaces };
}

/** The namespace of a request for `resource`: none for cluster-scoped resources or across all namespaces. */
export function requestNamespace(resource: ApiResource, scope: NamespaceScope): string | undefined {
  return resource.namespaced && !scope.allNamespaces ? scope.namespace : undefined;
}
