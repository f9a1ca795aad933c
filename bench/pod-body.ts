// The Pod the API benchmark creates: what a real workload's pod carries (3 containers with
// resources, env, ports, probes and volume mounts; 3 volumes), so that its create pays for the
// schema walk, defaulting and validation of a pod spec, where a ConfigMap's has almost none.

function container(name: string, port: number): Record<string, unknown> {
  return {
    name,
    image: `registry.example.com/shop/${name}:1.28.3`,
    command: ['/bin/server'],
    args: ['--port', String(port), '--log-level=info'],
    ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }, { name: 'metrics', containerPort: port + 1000 }],
    env: [
      { name: 'LOG_FORMAT', value: 'json' },
      { name: 'CACHE_SIZE', value: '512' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'MEMORY_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } },
    ],
    resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
    livenessProbe: { httpGet: { path: '/healthz', port }, initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 3 },
    readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5 },
    startupProbe: { tcpSocket: { port }, failureThreshold: 30, periodSeconds: 2 },
    volumeMounts: [
      { name: 'config', mountPath: '/etc/app', readOnly: true },
      { name: 'cache', mountPath: '/var/cache/app' },
      { name: 'tls', mountPath: '/etc/tls', readOnly: true },
    ],
    securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  };
}

/** A Pod named `name` of 3 containers (about 4.2 KB of JSON), each with resources, env, ports, probes and volume mounts. */
export function benchPod(name: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'shop', tier: 'backend', 'app.kubernetes.io/version': '1.28.3' }, annotations: { 'prometheus.io/scrape': 'true' } },
    spec: {
      containers: [container('api', 8080), container('worker', 8081), container('sidecar', 8082)],
      volumes: [
        { name: 'config', configMap: { name: 'shop-config', items: [{ key: 'app.yaml', path: 'app.yaml' }] } },
        { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
        { name: 'tls', secret: { secretName: 'shop-tls', defaultMode: 0o440 } },
      ],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'shop', effect: 'NoSchedule' }],
      terminationGracePeriodSeconds: 30,
    },
  };
}
