// DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass): a new Ingress that names
// no class (neither spec.ingressClassName nor the older annotation) gets the IngressClass marked
// default, the newest when several are.
import type { KObject } from '../../../registry/schema/declaration.ts';
import { admissionForbidden } from '../../forbidden.ts';
import type { AdmissionPlugin, PluginFactory } from '../../plugin.ts';
import { newestDefault } from '../default-storage-class/newest-default.ts';

/** The plugin's name, as kube-apiserver registers it. */
export const defaultIngressClassPluginName = 'DefaultIngressClass';

/** The annotation that marks the default IngressClass. */
export const isDefaultIngressClassAnnotation = 'ingressclass.kubernetes.io/is-default-class';
/** The annotation Ingresses named their class with before spec.ingressClassName. */
export const ingressClassAnnotation = 'kubernetes.io/ingress.class';

function isDefaultClass(o: KObject): boolean {
  return o.metadata.annotations?.[isDefaultIngressClassAnnotation] === 'true';
}

/** Makes the DefaultIngressClass plugin (it takes no configuration). */
export const defaultIngressClassPlugin: PluginFactory = (deps) => {
  const plugin: AdmissionPlugin = {
    name: defaultIngressClassPluginName,
    handles: (operation) => operation === 'CREATE',
    async admit(attributes) {
      const { group, resource } = attributes.resource;
      if (group !== `networking.${deps.apiDomain}` || resource !== 'ingresses' || attributes.subresource !== '') return;
      const ingress = attributes.object;
      if (ingress === undefined) return;
      const spec = (typeof ingress.spec === 'object' && ingress.spec !== null ? ingress.spec : {}) as Record<string, unknown>;
      if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) return;
      if (ingress.metadata.annotations?.[ingressClassAnnotation] !== undefined) return;
      let classes;
      try {
        classes = await deps.objects.list({ group: `networking.${deps.apiDomain}`, resource: 'ingressclasses' }, undefined);
      } catch (err) {
        throw admissionForbidden(attributes, err instanceof Error ? err.message : String(err));
      }
      const chosen = newestDefault(classes, isDefaultClass);
      if (chosen === undefined) return;
      spec.ingressClassName = chosen.metadata.name;
      ingress.spec = spec;
    },
  };
  return plugin;
};
