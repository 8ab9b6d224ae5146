// Structured logs: one JSON object per line on stderr, {time, level, event,
// ...fields}, so a log shipper (journald, Loki, CloudWatch) can filter on them.
export function jsonLogger(stream = process.stderr) {
  return (event, fields = {}, level = 'info') =>
    stream.write(JSON.stringify({ time: new Date().toISOString(), level, event, ...fields }) + '\n');
}
// Tests and embedders that want nothing logged.
export const quiet = () => {};
