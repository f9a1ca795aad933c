// NodeRestriction: a node agent's credentials (`system:node:<name>` in `system:nodes`) reach only
// what that node needs: its own Node and Lease and CSINode, mirror pods and pods bound to it,
// status of claims, and tokens for its pods. Requests from anyone else pass untouched.
import type { AdmissionAttributes } from '../../attributes.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionDeps, AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { nodeIdentity } from './node-identity.ts';
import type { NodeRequest } from './node-request.ts';
import { admitNodeRequest } from './node-rules.ts';
import { admitClaimStatus, admitCsiNode, admitLease, admitServiceAccount } from './other-rules.ts';
import { admitPodRequest } from './pod-rules.ts';

/** The plugin's name as kube-apiserver registers it. */
export const nodeRestrictionName = 'NodeRestriction';

/** The rules by `<resource>.<group>` (the group as served: `leases.coordination.<domain>`). */
function rulesFor(apiDomain: string): ReadonlyMap<string, (request: NodeRequest) => void | Promise<void>> {
  return new Map<string, (request: NodeRequest) => void | Promise<void>>([
    ['pods.', admitPodRequest],
    ['nodes.', admitNodeRequest],
    ['persistentvolumeclaims.', admitClaimStatus],
    ['serviceaccounts.', admitServiceAccount],
    [`leases.coordination.${apiDomain}`, admitLease],
    [`csinodes.storage.${apiDomain}`, admitCsiNode],
  ]);
}

function plugin(deps: AdmissionDeps): AdmissionPlugin {
  const rules = rulesFor(deps.apiDomain);
  const validate = async (attributes: AdmissionAttributes): Promise<void> => {
    const nodeName = nodeIdentity(attributes.userInfo);
    if (nodeName === undefined) return;
    if (nodeName === '') throw admissionForbidden(attributes, `could not determine node from user ${JSON.stringify(attributes.userInfo.username)}`);
    const rule = rules.get(`${attributes.resource.resource}.${attributes.resource.group}`);
    if (rule !== undefined) await rule({ attributes, nodeName, deps });
  };
  return { name: nodeRestrictionName, handles: (operation) => operation !== 'CONNECT', validate };
}

/** Makes NodeRestriction; takes no configuration. Pods and Nodes are read through `deps.objects`. */
export const nodeRestrictionPlugin: PluginFactory = (deps) => plugin(deps);
