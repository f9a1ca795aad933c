import { atomicList, int, mapList, open, str, withMarkers } from './field-schema.ts';

const containerSchema = open({
  name: str(),
  image: str(),
  imagePullPolicy: str(),
  command: atomicList(str()),
  args: atomicList(str()),
  ports: mapList(open({ containerPort: int(), protocol: str(undefined, { default: 'TCP' }), name: str(), hostPort: int() }), ['containerPort', 'protocol']),
  env: mapList(open({ name: str(), value: str() }), ['name']),
  volumeMounts: mapList(open({ name: str(), mountPath: str() }), ['mountPath']),
  volumeDevices: mapList(open({ name: str(), devicePath: str() }), ['devicePath']),
});

/** The partly described pod spec (containers typed enough for defaulting and validation). */
export const podSpecSchema = open({
  containers: mapList(containerSchema, ['name']),
  initContainers: mapList(containerSchema, ['name']),
  ephemeralContainers: mapList(open({ name: str() }), ['name']),
  nodeName: str(),
  restartPolicy: str(),
  terminationGracePeriodSeconds: int(),
  volumes: withMarkers(mapList(open({ name: str() }), ['name']), { 'x-kubernetes-patch-strategy': 'merge,retainKeys' }),
  imagePullSecrets: mapList(open({ name: str() }), ['name']),
  hostAliases: mapList(open({ ip: str() }), ['ip']),
  tolerations: atomicList(open()),
  topologySpreadConstraints: mapList(open({ topologyKey: str(), whenUnsatisfiable: str() }), ['topologyKey', 'whenUnsatisfiable']),
  schedulingGates: mapList(open({ name: str() }), ['name']),
  resourceClaims: mapList(open({ name: str() }), ['name']),
});

