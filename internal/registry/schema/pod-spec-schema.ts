import { arr, int, open, str } from './field-schema.ts';

const containerSchema = open({
  name: str(),
  image: str(),
  imagePullPolicy: str(),
  command: arr(str()),
  args: arr(str()),
  ports: arr(open({ containerPort: int(), protocol: str(), name: str(), hostPort: int() })),
  env: arr(open({ name: str(), value: str() })),
  volumeMounts: arr(open({ name: str(), mountPath: str() })),
});

/** The partly described pod spec (containers typed enough for defaulting and validation). */
export const podSpecSchema = open({
  containers: arr(containerSchema),
  initContainers: arr(containerSchema),
  nodeName: str(),
  restartPolicy: str(),
  terminationGracePeriodSeconds: int(),
  volumes: arr(open({ name: str() })),
});
