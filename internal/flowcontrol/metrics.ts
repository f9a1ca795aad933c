// The apiserver_flowcontrol_* metrics kube-apiserver 1.28 exports (k8s.io/apiserver/pkg/util/
// flowcontrol/metrics), the ones an operator reads to see who is queued, refused and how long they
// wait.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

type FlowLabels = 'flow_schema' | 'priority_level';

/** The flow-control metrics, registered on the API's registry. */
export class FlowControlMetrics {
  readonly dispatched: Counter<FlowLabels>;
  readonly rejected: Counter<FlowLabels | 'reason'>;
  readonly inQueue: Gauge<FlowLabels>;
  readonly executing: Gauge<FlowLabels>;
  readonly executingSeats: Gauge<FlowLabels>;
  readonly waitDuration: Histogram<FlowLabels | 'execute'>;
  readonly nominalLimitSeats: Gauge<'priority_level'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.dispatched = new Counter({ name: 'apiserver_flowcontrol_dispatched_requests_total', help: 'Number of requests executed by API Priority and Fairness subsystem', labelNames: ['flow_schema', 'priority_level'], registers });
    this.rejected = new Counter({ name: 'apiserver_flowcontrol_rejected_requests_total', help: 'Number of requests rejected by API Priority and Fairness subsystem', labelNames: ['flow_schema', 'priority_level', 'reason'], registers });
    this.inQueue = new Gauge({ name: 'apiserver_flowcontrol_current_inqueue_requests', help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', labelNames: ['flow_schema', 'priority_level'], registers });
    this.executing = new Gauge({ name: 'apiserver_flowcontrol_current_executing_requests', help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', labelNames: ['flow_schema', 'priority_level'], registers });
    this.executingSeats = new Gauge({ name: 'apiserver_flowcontrol_current_executing_seats', help: 'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem', labelNames: ['flow_schema', 'priority_level'], registers });
    this.waitDuration = new Histogram({
      name: 'apiserver_flowcontrol_request_wait_duration_seconds', help: 'Length of time a request spent waiting in its queue', labelNames: ['flow_schema', 'priority_level', 'execute'],
      buckets: [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30], registers,
    });
    this.nominalLimitSeats = new Gauge({ name: 'apiserver_flowcontrol_nominal_limit_seats', help: 'Nominal number of execution seats configured for each priority level', labelNames: ['priority_level'], registers });
  }
}
