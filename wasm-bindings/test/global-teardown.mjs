// Removes the objects and probes global-setup made.
export { teardown as default } from './global-setup.mjs';
