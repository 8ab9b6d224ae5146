// webSocketTransport with a stand-in WebSocket that bridges to a spawned
// linklab-executor as web/server.mjs does: the bridge's close reason reaches
// the caller's error.
import { spawn } from 'node:child_process';
import { Executor, LinklabError, webSocketTransport } from '../index.mjs';
import { config } from './helpers.mjs';

// The browser WebSocket surface the transport uses, over an executor child;
// `hold` drops what the page sends (a request then stays in flight).
class BridgeSocket extends EventTarget {
  static last;
  hold = false;
  readyState = 0; // CONNECTING
  constructor(url) {
    super();
    BridgeSocket.last = this;
    this.url = url;
    this.child = spawn(config.executor, ['stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child.stdout.on('data',
                         (d) => this.#emit('message', { data: d.buffer.slice(d.byteOffset, d.byteOffset + d.length) }));
    this.child.on('exit', (code, signal) => {
      this.readyState = 3; // CLOSED
      this.#emit('close', { code: 1011,
                            reason: signal ? `executor killed by ${signal}` : `executor exited with status ${code}` });
    });
    this.child.on('spawn', () => { this.readyState = 1; this.#emit('open', {}); });
  }
  #emit(type, fields) { this.dispatchEvent(Object.assign(new Event(type), fields)); }
  send(b) { if (!this.hold) this.child.stdin.write(new Uint8Array(b)); }
  close() { this.child.stdin.end(); }
}

test('the close reason of the bridge fails the request in flight', async () => {
  const t = await webSocketTransport('ws://bridge/executor', { WebSocket: BridgeSocket });
  const x = new Executor(t);
  const info = await x.setup('x86_64-unknown-linux-gnu');
  expect(info.triple).toMatch(/^x86_64/);
  BridgeSocket.last.hold = true;
  const pending = x.readMemory(0x1000, 16);
  BridgeSocket.last.child.kill('SIGKILL');
  await expect(pending)
    .rejects.toThrow(new LinklabError('executor: executor WebSocket closed: executor killed by SIGKILL'));
  // Later requests say the same.
  await expect(x.setup('x86_64-unknown-linux-gnu')).rejects.toThrow('executor killed by SIGKILL');
});

test('a connection that closes before opening rejects with its reason', async () => {
  class Refused extends EventTarget {
    constructor() {
      super();
      queueMicrotask(() => this.dispatchEvent(Object.assign(new Event('close'), { code: 1006, reason: '' })));
    }
  }
  await expect(webSocketTransport('ws://nowhere/executor', { WebSocket: Refused }))
    .rejects.toThrow('cannot connect to executor at ws://nowhere/executor: code 1006');
  await expect(webSocketTransport('ws://x', { WebSocket: null })).rejects.toThrow(/no WebSocket class/);
});

test('a WebSocket opened earlier is taken as it is: open, still connecting, or closed', async () => {
  const opened = new BridgeSocket('ws://bridge/early');
  await new Promise((resolve) => opened.addEventListener('open', resolve, { once: true }));
  const x = new Executor(await webSocketTransport(opened));
  expect((await x.setup('riscv64-unknown-linux-gnu')).triple).toMatch(/^riscv64/);
  await x.close();
  const connecting = new BridgeSocket('ws://bridge/early');
  const y = new Executor(await webSocketTransport(connecting));
  expect((await y.setup('x86_64-unknown-linux-gnu')).triple).toMatch(/^x86_64/);
  connecting.child.kill('SIGKILL');
  await new Promise((resolve) => connecting.addEventListener('close', resolve, { once: true }));
  await expect(webSocketTransport(connecting)).rejects.toThrow('cannot connect to executor at ws://bridge/early: the WebSocket is closed');
});
