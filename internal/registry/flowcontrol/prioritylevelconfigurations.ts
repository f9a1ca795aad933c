// PriorityLevelConfigurations (flowcontrol.apiserver.k8s.io), as kube-apiserver 1.28 serves them
// (pkg/registry/flowcontrol/prioritylevelconfiguration): v1beta3, and v1beta2 (deprecated) over
// the same collection, with the status sub-resource. Data only for now: orch does not yet limit
// concurrency by them (API Priority and Fairness enforcement is a later issue).
import type { KObject, PrinterColumn, ResourceDeclaration } from '../schema/declaration.ts';
import { builtinFields } from '../schema/builtin-schemas.ts';
import { ageColumn, nameColumn, text } from '../schema/printers.ts';
import { priorityLevelFromV1beta2, priorityLevelToV1beta2 } from './v1beta2-conversion.ts';
import { validatePriorityLevel } from './priority-level-validation.ts';
import { obj } from './values.ts';

/** The shares of a limited level that gives none (PriorityLevelConfigurationDefaultNominalConcurrencyShares). */
const defaultShares = 30;
const queuingDefaults: Readonly<Record<string, number>> = { handSize: 8, queues: 64, queueLengthLimit: 50 };

function unset(v: unknown): boolean {
  return v === undefined || v === null;
}

/** SetDefaults of v1beta3 (or v1beta2, whose shares are named `sharesField`). */
function defaults(sharesField: string): (o: KObject) => void {
  return (o) => {
    const spec = obj(o.spec);
    if (typeof spec.limited === 'object' && spec.limited !== null) {
      const limited = spec.limited as Record<string, unknown>;
      if (unset(limited[sharesField]) || limited[sharesField] === 0) limited[sharesField] = defaultShares;
      if (unset(limited.lendablePercent)) limited.lendablePercent = 0;
      const queuing = obj(limited.limitResponse).queuing;
      if (typeof queuing === 'object' && queuing !== null) {
        const q = queuing as Record<string, unknown>;
        for (const [f, v] of Object.entries(queuingDefaults)) if (unset(q[f]) || q[f] === 0) q[f] = v;
      }
    }
    if (typeof spec.exempt === 'object' && spec.exempt !== null) {
      const exempt = spec.exempt as Record<string, unknown>;
      for (const f of ['nominalConcurrencyShares', 'lendablePercent']) if (unset(exempt[f])) exempt[f] = 0;
    }
  };
}

const none = '<none>';

function cell(path: string): (o: KObject) => string | number {
  return (o) => {
    if (unset(obj(o.spec).limited)) return none;
    const v = path.split('.').reduce<unknown>((at, k) => obj(at)[k], obj(o.spec).limited);
    return typeof v === 'number' ? v : none;
  };
}

function columns(sharesField: string): readonly PrinterColumn[] {
  return [
    nameColumn,
    { name: 'Type', type: 'string', description: '`type` indicates whether this priority level is subject to limitation on request execution.', cell: (o) => text(o, 'spec.type') },
    { name: 'NominalConcurrencyShares', type: 'string', description: '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level.', cell: cell(sharesField) },
    { name: 'Queues', type: 'string', description: '`queues` is the number of queues for this priority level.', cell: cell('limitResponse.queuing.queues') },
    { name: 'HandSize', type: 'string', description: '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.', cell: cell('limitResponse.queuing.handSize') },
    { name: 'QueueLengthLimit', type: 'string', description: '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time.', cell: cell('limitResponse.queuing.queueLengthLimit') },
    ageColumn,
  ];
}

const shared = {
  group: 'flowcontrol.apiserver',
  groupQualified: true,
  kind: 'PriorityLevelConfiguration',
  plural: 'prioritylevelconfigurations',
  singular: 'prioritylevelconfiguration',
  namespaced: false,
  nameRule: 'subdomain',
  description: 'PriorityLevelConfiguration represents the configuration of a priority level.',
  subresources: { status: true },
  tracksGeneration: true,
} as const;

function prepareForCreate(o: KObject): void {
  o.status = {};
}

/** PriorityLevelConfigurations (flowcontrol.apiserver.<domain>/v1beta3, the storage version). */
export const prioritylevelconfigurations: ResourceDeclaration = {
  ...shared,
  version: 'v1beta3',
  fields: builtinFields('io.k8s.api.flowcontrol.v1beta3.PriorityLevelConfiguration'),
  printerColumns: columns('nominalConcurrencyShares'),
  strategy: { prepareForCreate, applyDefaults: defaults('nominalConcurrencyShares'), validate: (o) => validatePriorityLevel(o, 'nominalConcurrencyShares') },
};

/** PriorityLevelConfigurations (flowcontrol.apiserver.<domain>/v1beta2): the same objects, the shares named assuredConcurrencyShares. */
export const prioritylevelconfigurationsV1beta2: ResourceDeclaration = {
  ...shared,
  version: 'v1beta2',
  fields: builtinFields('io.k8s.api.flowcontrol.v1beta2.PriorityLevelConfiguration'),
  printerColumns: columns('assuredConcurrencyShares'),
  deprecatedSince: '1.26',
  removedIn: '1.29',
  replacement: { version: 'v1beta3', kind: 'PriorityLevelConfiguration' },
  strategy: { prepareForCreate, applyDefaults: defaults('assuredConcurrencyShares'), validate: (o) => validatePriorityLevel(o, 'assuredConcurrencyShares') },
  storedAs: { decl: prioritylevelconfigurations, toStored: priorityLevelFromV1beta2, fromStored: priorityLevelToV1beta2 },
};
