// Which resource names are extended resources (kube's helper.IsExtendedResourceName): names with
// a domain prefix outside `kubernetes.io/`, not starting `requests.`, that still form a valid
// qualified name once quota's `requests.` prefix is put in front.
import { qualifiedName } from '../../../registry/schema/name-validation.ts';

const nativePrefix = 'kubernetes.io/';
const requestsPrefix = 'requests.';

/** True for a resource named `<domain>/<name>` that the cluster does not define itself. */
export function isExtendedResourceName(name: string): boolean {
  const native = !name.includes('/') || name.includes(nativePrefix);
  if (native || name.startsWith(requestsPrefix)) return false;
  return qualifiedName(`${requestsPrefix}${name}`).length === 0;
}
