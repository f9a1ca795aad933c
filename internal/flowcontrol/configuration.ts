// The API Priority and Fairness configuration compiled from the FlowSchema and
// PriorityLevelConfiguration objects (v1beta3 JSON), as kube-apiserver 1.28's apf_controller
// digests them (digestNewPLsLocked, digestFlowSchemasLocked, imaginePL,
// finishQueueSetReconfigsLocked):
// - a priority level whose spec is broken (its type and union members disagree, or an Exempt
//   level not named `exempt`) is ignored, as if absent;
// - a FlowSchema whose priority level is absent is dangling: reported, and never matched;
// - the schemas are ordered by matchingPrecedence, then name; a missing (or dangling) mandatory
//   `exempt` schema is put first and `catch-all` last, and the mandatory levels are imagined when
//   absent, from the bootstrap objects, so that every request lands somewhere;
// - each level's nominal concurrency limit is ceil(serverConcurrencyLimit × its shares / the sum
//   of every level's shares).
// Not done here: borrowing between levels (lendablePercent, borrowingLimitPercent: kube 1.28
// adjusts each level's current limit every few seconds from the seat demand), and levels that
// disappeared keeping their shares while their requests drain (kube counts them in the sum).
import assert from 'node:assert/strict';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, type BootstrapObject } from '../registry/flowcontrol/bootstrap-configuration.ts';
import { obj } from '../registry/flowcontrol/values.ts';
import { matchesPolicyRules, parsePolicyRules } from './rule-match.ts';
import type { Classification, FlowSchema, PriorityLevel, QueuingConfig, RequestDigest } from './types.ts';

/** The compiled configuration: what classification and admission read. */
export interface Configuration {
  /** The schemas in matching order (matchingPrecedence, then name), dangling ones left out, mandatory ones supplied. */
  readonly flowSchemas: readonly FlowSchema[];
  /** Every usable priority level by name, the mandatory ones included (imagined when absent). */
  readonly priorityLevels: ReadonlyMap<string, PriorityLevel>;
  /** Each stored FlowSchema's name: whether its priority level is absent (its `Dangling` condition). */
  readonly dangling: ReadonlyMap<string, boolean>;
  /** The first schema that matches the request, its level and the request's flow distinguisher. */
  classify(digest: RequestDigest): Classification;
}

/** The names of the mandatory objects (flowcontrol.FlowSchemaNameExempt, ...NameCatchAll; the levels are named alike). */
export const exemptName = 'exempt';
export const catchAllName = 'catch-all';

/** Defaults of v1beta3 (PriorityLevelConfigurationDefaultNominalConcurrencyShares, the queuing defaults, FlowSchemaDefaultMatchingPrecedence). */
const defaultShares = 30;
const defaultQueuing: QueuingConfig = { queues: 64, handSize: 8, queueLengthLimit: 50 };
const defaultMatchingPrecedence = 1000;

/** An object's name, uid and spec: what compiling reads of it. */
export interface ObjectParts {
  readonly name: string;
  readonly uid: string;
  readonly spec: Record<string, unknown>;
}

function partsOf(o: object): ObjectParts {
  const metadata = obj((o as Record<string, unknown>).metadata);
  return {
    name: typeof metadata.name === 'string' ? metadata.name : '',
    uid: typeof metadata.uid === 'string' ? metadata.uid : '',
    spec: obj((o as Record<string, unknown>).spec),
  };
}

/** A bootstrap object as if stored (no uid: kube's imagined objects have none either). */
function bootstrapParts(b: BootstrapObject): ObjectParts {
  return { name: b.name, uid: '', spec: b.spec };
}

function positiveOr(v: unknown, fallback: number): number {
  return typeof v === 'number' && v > 0 ? v : fallback;
}

/** A level without its limit (computed once every level's shares are known), or undefined when its spec is broken. */
function parsePriorityLevel(p: ObjectParts): Omit<PriorityLevel, 'concurrencyLimit'> | undefined {
  const type = p.spec.type;
  const hasLimited = typeof p.spec.limited === 'object' && p.spec.limited !== null;
  const hasExempt = typeof p.spec.exempt === 'object' && p.spec.exempt !== null;
  if ((type === 'Limited') !== hasLimited || (type === 'Exempt') !== hasExempt) return undefined;
  // kube does not let a level switch between exempt and limited: only `exempt` is, and it must be.
  if ((type === 'Exempt') !== (p.name === exemptName)) return undefined;
  if (type === 'Exempt') {
    const shares = obj(p.spec.exempt).nominalConcurrencyShares;
    return { name: p.name, uid: p.uid, exempt: true, nominalConcurrencyShares: typeof shares === 'number' && shares > 0 ? shares : 0, queuing: null };
  }
  const limited = obj(p.spec.limited);
  const response = obj(limited.limitResponse);
  const hasQueuing = typeof response.queuing === 'object' && response.queuing !== null;
  if ((response.type === 'Reject') === hasQueuing || (response.type !== 'Reject' && response.type !== 'Queue')) return undefined;
  const q = obj(response.queuing);
  const queuing = hasQueuing
    ? { queues: positiveOr(q.queues, defaultQueuing.queues), handSize: positiveOr(q.handSize, defaultQueuing.handSize), queueLengthLimit: positiveOr(q.queueLengthLimit, defaultQueuing.queueLengthLimit) }
    : null;
  return { name: p.name, uid: p.uid, exempt: false, nominalConcurrencyShares: positiveOr(limited.nominalConcurrencyShares, defaultShares), queuing };
}

/** Every usable level with its nominal concurrency limit; the mandatory ones imagined when absent. */
function compilePriorityLevels(objects: readonly object[], serverConcurrencyLimit: number): Map<string, PriorityLevel> {
  const parsed = new Map<string, Omit<PriorityLevel, 'concurrencyLimit'>>();
  for (const o of objects) {
    const parts = partsOf(o);
    assert(!parsed.has(parts.name), `two PriorityLevelConfigurations named ${parts.name}`);
    const level = parsePriorityLevel(parts);
    if (level !== undefined) parsed.set(level.name, level);
  }
  for (const b of mandatoryPriorityLevels) {
    if (parsed.has(b.name)) continue;
    const level = parsePriorityLevel(bootstrapParts(b));
    assert(level !== undefined, `the mandatory priority level ${b.name} is broken`);
    parsed.set(b.name, level);
  }
  const shareSum = [...parsed.values()].reduce((sum, l) => sum + l.nominalConcurrencyShares, 0);
  const levels = new Map<string, PriorityLevel>();
  for (const level of parsed.values()) {
    const nominal = shareSum > 0 ? Math.ceil((serverConcurrencyLimit * level.nominalConcurrencyShares) / shareSum) : 0;
    // An exempt level's limit is only reported (kube computes it alike); a limited level gets at least a seat.
    levels.set(level.name, { ...level, concurrencyLimit: level.exempt ? nominal : Math.max(1, nominal) });
  }
  return levels;
}

/** A FlowSchema compiled from its parts. */
export function compileFlowSchema(p: ObjectParts): FlowSchema {
  const rules = parsePolicyRules(p.spec);
  const method = obj(p.spec.distinguisherMethod).type;
  const level = obj(p.spec.priorityLevelConfiguration).name;
  return {
    name: p.name,
    uid: p.uid,
    matchingPrecedence: positiveOr(p.spec.matchingPrecedence, defaultMatchingPrecedence),
    distinguisher: method === 'ByUser' || method === 'ByNamespace' ? method : null,
    priorityLevelName: typeof level === 'string' ? level : '',
    matches: (digest) => matchesPolicyRules(digest, rules),
  };
}

/** Matching order: matchingPrecedence ascending, then name (byte order, as Go compares strings). */
export function compareFlowSchemas(a: FlowSchema, b: FlowSchema): number {
  if (a.matchingPrecedence !== b.matchingPrecedence) return a.matchingPrecedence - b.matchingPrecedence;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function mandatoryFlowSchema(name: string): FlowSchema {
  const b = mandatoryFlowSchemas.find((fs) => fs.name === name);
  assert(b !== undefined, `no mandatory flow schema ${name}`);
  return compileFlowSchema(bootstrapParts(b));
}

/**
 * The flow distinguisher, as kube's startRequest computes it: only for a level with more than one
 * queue (elsewhere every flow lands alike, and kube leaves it '').
 */
function flowDistinguisher(digest: RequestDigest, schema: FlowSchema, level: PriorityLevel): string {
  if (level.queuing === null || level.queuing.queues <= 1) return '';
  if (schema.distinguisher === 'ByUser') return digest.user.username;
  if (schema.distinguisher === 'ByNamespace') return digest.resource?.namespace ?? '';
  return '';
}

/**
 * Compiles the stored objects into the configuration in force. `serverConcurrencyLimit` is the
 * server's seats (kube: --max-requests-inflight + --max-mutating-requests-inflight, 600 by
 * default). Names must be distinct (a store guarantees it; a repeat is a bug and throws).
 */
export function compileConfiguration(flowSchemas: readonly object[], priorityLevels: readonly object[], serverConcurrencyLimit: number): Configuration {
  const levels = compilePriorityLevels(priorityLevels, serverConcurrencyLimit);
  // Dangling is judged against the stored levels only (kube imagines the mandatory ones later).
  const storedLevelNames = new Set(priorityLevels.map((o) => partsOf(o).name).filter((n) => levels.has(n)));
  const dangling = new Map<string, boolean>();
  const usable: FlowSchema[] = [];
  for (const o of flowSchemas) {
    const schema = compileFlowSchema(partsOf(o));
    assert(!dangling.has(schema.name), `two FlowSchemas named ${schema.name}`);
    const isDangling = !storedLevelNames.has(schema.priorityLevelName);
    dangling.set(schema.name, isDangling);
    if (!isDangling) usable.push(schema);
  }
  usable.sort(compareFlowSchemas);
  if (!usable.some((s) => s.name === exemptName)) usable.unshift(mandatoryFlowSchema(exemptName));
  if (!usable.some((s) => s.name === catchAllName)) usable.push(mandatoryFlowSchema(catchAllName));

  const classification = (digest: RequestDigest, schema: FlowSchema): Classification => {
    const level = levels.get(schema.priorityLevelName);
    assert(level !== undefined, `flow schema ${schema.name} kept without its priority level ${schema.priorityLevelName}`);
    return { flowSchema: schema, priorityLevel: level, flowDistinguisher: flowDistinguisher(digest, schema, level) };
  };
  return {
    flowSchemas: usable,
    priorityLevels: levels,
    dangling,
    classify(digest) {
      const matched = usable.find((s) => s.matches(digest));
      // No match can only be a request outside system:authenticated and system:unauthenticated:
      // kube falls back on the catch-all schema it always keeps.
      const catchAll = usable.find((s) => s.name === catchAllName);
      const schema = matched ?? catchAll;
      assert(schema !== undefined, 'no catch-all flow schema');
      return classification(digest, schema);
    },
  };
}
