// DenyServiceExternalIPs: a Service may not start using spec.externalIPs (an address any tenant
// could claim to intercept traffic). A Service keeps the addresses it had and may drop some;
// any address it did not have before is refused.
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionAttributes } from '../../attributes.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { internalError } from '../../../registry/errors/status-error.ts';
import type { KObject } from '../../../registry/schema/declaration.ts';

/** The plugin's name as kube-apiserver registers it. */
export const denyServiceExternalIpsName = 'DenyServiceExternalIPs';

/** kube's refusal text (capitalised as kube writes it). */
export const externalIpsDeniedReason = 'Use of external IPs is denied by admission control';

function externalIps(service: KObject | undefined): string[] {
  const spec = service?.['spec'];
  if (typeof spec !== 'object' || spec === null) return [];
  const ips = (spec as Record<string, unknown>)['externalIPs'];
  return Array.isArray(ips) ? ips.filter((ip): ip is string => typeof ip === 'string') : [];
}

/** Whether every address of the new Service was already on the old one (none at all counts). */
function onlyKnownAddresses(service: KObject, old: KObject | undefined): boolean {
  const wanted = externalIps(service);
  if (wanted.length === 0) return true;
  if (old === undefined) return false;
  const had = new Set(externalIps(old));
  return wanted.every((ip) => had.has(ip));
}

async function validate(attributes: AdmissionAttributes): Promise<void> {
  const { group, resource } = attributes.resource;
  if (group !== '' || resource !== 'services' || attributes.subresource !== '') return;
  const service = attributes.object;
  if (service === undefined || attributes.kind.kind !== 'Service') {
    throw internalError(`Expected Service resource, got: ${attributes.kind.kind}`);
  }
  if (onlyKnownAddresses(service, attributes.oldObject)) return;
  throw admissionForbidden(attributes, externalIpsDeniedReason);
}

/** Makes DenyServiceExternalIPs; takes no configuration. */
export const denyServiceExternalIpsPlugin: PluginFactory = () => {
  const plugin: AdmissionPlugin = {
    name: denyServiceExternalIpsName,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate,
  };
  return plugin;
};
