#!/usr/bin/env node
// linklab-run: link (and run) objects with the wasm build of linklab; the
// options are the native linklab CLI's (see lib/cli.mjs).
import { runCli } from '../lib/cli.mjs';

process.exitCode = await runCli(process.argv.slice(2));
