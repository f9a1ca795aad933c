// One request's admission, as the store calls it: builds the attributes of each call from what
// the request named (resource, sub-resource, namespace, name, user, dry run) and runs the chain.
import type { UserInfo } from '../authn/user-info.ts';
import type { AdmissionOperation, WriteAdmission } from '../registry/generic/write-admission.ts';
import type { KObject } from '../registry/schema/declaration.ts';
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from './attributes.ts';
import type { AdmissionChain } from './chain.ts';

/** What the request says about itself. */
export interface RequestScope {
  readonly resource: GroupVersionResource;
  /** '' for the main resource. */
  readonly subresource: string;
  /** The kind the resource serves (a sub-resource's body names its own). */
  readonly kind: GroupVersionKind;
  /** '' for cluster-scoped resources. */
  readonly namespace: string;
  /** The name in the path; '' for a create, which takes the object's. */
  readonly name: string;
  readonly userInfo: UserInfo;
  readonly dryRun: boolean;
  /** The field manager the request writes as (in the Create/UpdateOptions webhooks see). */
  readonly fieldManager?: string;
  readonly warn: (text: string) => void;
  /** Audit annotations gathered across the request's admission calls. */
  readonly annotations: Map<string, string>;
}

const optionsKinds: Readonly<Record<AdmissionOperation, string>> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions', CONNECT: '' };

/** The kind an object says it is, else the resource's. */
function kindOf(obj: KObject | undefined, fallback: GroupVersionKind): GroupVersionKind {
  if (obj === undefined || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || obj.kind === '') return fallback;
  const slash = obj.apiVersion.indexOf('/');
  return { group: slash < 0 ? '' : obj.apiVersion.slice(0, slash), version: obj.apiVersion.slice(slash + 1), kind: obj.kind };
}

export class RequestAdmission implements WriteAdmission {
  constructor(
    private readonly chain: AdmissionChain,
    private readonly scope: RequestScope,
  ) {}

  async mutate(operation: AdmissionOperation, obj: KObject | undefined, old: KObject | undefined): Promise<KObject | undefined> {
    const attributes = this.attributes(operation, obj, old);
    await this.chain.admit(attributes);
    return attributes.object;
  }

  async validate(operation: AdmissionOperation, obj: KObject | undefined, old: KObject | undefined): Promise<void> {
    await this.chain.validate(this.attributes(operation, obj, old));
  }

  private attributes(operation: AdmissionOperation, object: KObject | undefined, oldObject: KObject | undefined): AdmissionAttributes {
    const { scope } = this;
    const optionsKind = optionsKinds[operation];
    const operationOptions = optionsKind === '' ? undefined : {
      apiVersion: 'meta.k8s.io/v1', kind: optionsKind,
      ...(scope.dryRun ? { dryRun: ['All'] } : {}),
      ...(operation !== 'DELETE' && scope.fieldManager !== undefined ? { fieldManager: scope.fieldManager } : {}),
    };
    const name = scope.name !== '' ? scope.name : typeof object?.metadata?.name === 'string' ? object.metadata.name : '';
    return {
      operation, resource: scope.resource, subresource: scope.subresource, kind: kindOf(object ?? oldObject, scope.kind),
      namespace: scope.namespace, name, object, oldObject, operationOptions, dryRun: scope.dryRun, userInfo: scope.userInfo,
      reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
      addAnnotation: (key, value) => {
        if (!scope.annotations.has(key)) scope.annotations.set(key, value);
      },
      addWarning: scope.warn,
    };
  }
}
