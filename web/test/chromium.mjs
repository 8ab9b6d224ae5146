// The flags Debian's chromium needs here (shared/design.md): headless, no
// sandbox (root in a container), no GPU, nothing fetched from the network.
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update'];
