// The server's Prometheus metrics (prom-client), one registry per server so
// that several servers in one process (the tests) keep their own counts.
import client from 'prom-client';

// run-result status byte (core/protocol/PROTOCOL.md) → label.
export const RUN_STATUS = ['returned', 'exited', 'instruction_limit', 'time_limit', 'memory_limit', 'fault', 'error',
  'signal'];

export function serverMetrics() {
  const register = new client.Registry();
  client.collectDefaultMetrics({ register, prefix: 'linklab_server_' });
  const registers = [register];
  const gauge = (name, help) => new client.Gauge({ name, help, registers });
  const counter = (name, help, labelNames = []) => new client.Counter({ name, help, labelNames, registers });
  const histogram = (name, help, buckets) => new client.Histogram({ name, help, buckets, registers });
  const m = {
    register,
    executors: gauge('linklab_executors_running', 'linklab-executor processes alive'),
    queue: gauge('linklab_queue_length', 'sessions waiting for an executor'),
    sessions: gauge('linklab_sessions_open', 'open /executor connections'),
    runsStarted: counter('linklab_runs_started_total', 'runs sent to an executor'),
    runsFinished: counter('linklab_runs_finished_total', 'runs that got a result, by status', ['status']),
    runsFailed: counter('linklab_runs_failed_total', 'runs that got no result, by reason', ['reason']),
    refused: counter('linklab_sessions_refused_total', 'connections refused or cut off, by reason', ['reason']),
    runSeconds: histogram('linklab_run_duration_seconds', 'run request to run result',
      [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]),
    queueSeconds: histogram('linklab_queue_wait_seconds', 'first message to executor started',
      [0, 0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60]),
    links: counter('linklab_links_total', 'short-link requests, by outcome', ['outcome']),
    truncated: counter('linklab_runs_truncated_total', 'runs whose output the executor cut at --max-output'),
  };
  for (const s of RUN_STATUS) m.runsFinished.inc({ status: s }, 0);
  return m;
}
