// How the playground links and starts a program: the package's flow
// (`linklab/link-flow`, wasm-bindings/lib/link-flow.mjs), which bundle replays use too.
export * from 'linklab/link-flow';
