// The wrapper's "run soon" scheduler: setImmediate where it exists, else a
// MessageChannel task (browsers: setTimeout(0) is clamped and throttled).
import { jest } from '@jest/globals';
import { LinkSession } from '../index.mjs';
import { makeScheduler } from '../lib/schedule.mjs';
import { program, read } from './helpers.mjs';

// A MessageChannel that counts the messages posted through it.
let posted = 0;
class CountingChannel extends MessageChannel {
  constructor() {
    super();
    const post = this.port2.postMessage.bind(this.port2);
    this.port2.postMessage = (m) => { posted++; post(m); };
  }
}

test('without setImmediate: MessageChannel tasks, in order, never setTimeout', async () => {
  const env = { MessageChannel: CountingChannel, setTimeout: jest.fn() };
  const soon = makeScheduler(env);
  const ran = [];
  posted = 0;
  await new Promise((done) => { for (let i = 0; i < 5; i++) soon(() => { ran.push(i); if (i === 4) done(); }); });
  expect(ran).toEqual([0, 1, 2, 3, 4]);
  expect(posted).toBe(5);
  expect(env.setTimeout).not.toHaveBeenCalled();
});

test('setImmediate wins when present; setTimeout only without either', () => {
  const env = { setImmediate: jest.fn(), MessageChannel: CountingChannel, setTimeout: jest.fn() };
  const f = () => {};
  makeScheduler(env)(f);
  expect(env.setImmediate).toHaveBeenCalledWith(f);
  const bare = { setTimeout: jest.fn() };
  makeScheduler(bare)(f);
  expect(bare.setTimeout).toHaveBeenCalledWith(f, 0);
});

test('a link in an environment without setImmediate (a browser) runs through MessageChannel', async () => {
  const saved = { setImmediate: globalThis.setImmediate, MessageChannel: globalThis.MessageChannel };
  delete globalThis.setImmediate;
  globalThis.MessageChannel = CountingChannel;
  posted = 0;
  try {
    const s = new LinkSession({ slabAddress: 0x10000, phonyExternals: true });
    for (const f of program('funcs', 'x86_64').files) s.addObject(read(f), { name: f });
    expect(await s.link()).toBeGreaterThan(0x10000);
    expect(posted).toBeGreaterThan(0);
  } finally {
    Object.assign(globalThis, saved);
  }
});
