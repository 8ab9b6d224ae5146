// Every form field a session saves, by section and key: [element id, property].
// Options, limits, the share snapshot and a restored session all go through
// this table.
import { $ } from './ui.mjs';

export const FIELDS = {
  options: {
    entry: ['opt-entry', 'value'], phonyExternals: ['opt-phony', 'checked'], runtime: ['opt-runtime', 'checked'],
    absolutes: ['opt-abs', 'value'], slabAddress: ['opt-slab', 'value'],
  },
  run: {
    args: ['run-args', 'value'], instructions: ['lim-insn', 'value'], wallMillis: ['lim-time', 'value'],
    memoryMB: ['lim-mem', 'value'], stdin: ['run-stdin', 'value'],
  },
  callconv: { spec: ['cc-spec', 'value'], signature: ['cc-sig', 'value'], function: ['cc-fn', 'value'],
              arguments: ['cc-args', 'value'] },
  pass: { phase: ['pass-phase', 'value'], code: ['pass-code', 'value'], enabled: ['pass-on', 'checked'] },
};

export function readFields(section) {
  return Object.fromEntries(Object.entries(FIELDS[section]).map(([key, [id, prop]]) => [key, $(id)[prop]]));
}
// Sets the fields `values` names (a missing key leaves its field as it is).
export function writeFields(section, values = {}) {
  for (const [key, [id, prop]] of Object.entries(FIELDS[section]))
    if (values[key] !== undefined) $(id)[prop] = values[key];
}
