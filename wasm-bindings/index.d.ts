// Types of the linklab package (index.mjs, and node.mjs which adds the
// Node-only executor transports).

export class LinklabError extends Error {}

export type Phase = 'pre-prune' | 'prune' | 'post-prune' | 'post-allocation' | 'pre-fixup' | 'post-fixup';
/** From the core (api::phaseNames), in link order. */
export const PHASES: readonly Phase[];
export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;
/** 64-bit values: a safe integer, a bigint, or decimal / 0x text. */
export type U64 = number | bigint | string;

/** The registry's architecture names, one per row: 'x86_64', 'aarch64', 'riscv64', 'armv7', ... */
export function targets(): string[];

export interface ObjectInfo {
  name: string; format: 'elf'; machine: number;
  /** The ELF header's description of the machine ("x86-64", "AArch64"), for any machine. */
  machineName: string;
  /** One of targets() ("x86_64"); "" for a machine linklab has no target for. */
  arch: string;
  /** The full triple, as clang spells it ("x86_64-unknown-linux-gnu"; the OS an object names is kept:
   *  "x86_64-unknown-freebsd"); "" for a machine linklab has no target for. */
  triple: string;
  flags: number;
  sections: { index: number; name: string; type: number; typeName: string; flags: number; size: number; offset: number;
              addralign: number; entsize: number; link: number; info: number }[];
  /** Names as llvm-readelf prints them (typeName "FUNC", bindName "GLOBAL"; section "UND", "ABS", "COMMON"). */
  symbols: { index: number; name: string; bind: number; bindName: string; type: number; typeName: string;
             visibility: number; shndx: number; section: string; value: number; size: number }[];
  relocations: { section: string; offset: number; type: number; typeName: string; symbol: number;
                 symbolName: string; addend: number }[];
}
/** A static archive: each member inspected (named "archive(member)"), and the archive's symbol index. */
export interface ArchiveInfo {
  name: string; format: 'archive';
  /** A member that is not a readable object has `error` instead of the object fields. */
  members: ((ObjectInfo | { name: string; error: string }) & { member: string; offset: number; size: number })[];
  /** Sorted by symbol; `member` indexes `members`. */
  symbolIndex: { symbol: string; member: number }[];
}
export function inspect(object: Bytes, name?: string): ObjectInfo | ArchiveInfo;

/** `width`: the bytes the kind's fixup writes from `offset` on (core's edge-kind table). */
export interface GraphEdge {
  offset: number; kind: string; width: number; target: number; targetName: string; addend: number;
}
export interface GraphBlock {
  id: number; address: number; size: number; alignment: number; alignmentOffset: number; zeroFill: boolean;
  content?: Uint8Array; edges: GraphEdge[];
}
export interface GraphSymbol {
  id: number; name: string; kind: 'defined' | 'external' | 'absolute'; block?: number; section?: string;
  offset: number; address: number; size: number; linkage: 'strong' | 'weak'; scope: 'default' | 'hidden' | 'local';
  callable: boolean; live: boolean; weak: boolean;
}
export interface GraphData {
  name: string; triple: string; pointerSize: number;
  sections: { name: string; prot: string; noAlloc: boolean; blocks: GraphBlock[] }[];
  symbols: GraphSymbol[];
}

/** The LinkGraph during one pass. IDs come from data() of the same pass. */
export class Graph {
  readonly phase: Phase;
  readonly object: string;
  data(options?: { content?: boolean }): GraphData;
  dump(): string;
  edgeKinds(): string[];
  findSymbol(name: string): GraphSymbol | undefined;
  addExternalSymbol(name: string, options?: { weak?: boolean }): number;
  addAbsoluteSymbol(name: string, address: U64, options?: { scope?: string }): number;
  addDefinedSymbol(s: { block: number; offset?: number; name?: string; size?: number; linkage?: string;
                        scope?: string; callable?: boolean; live?: boolean }): number;
  removeSymbol(id: number): void;
  makeExternal(id: number): void;
  setLive(id: number, live?: boolean): void;
  addEdge(e: { block: number; kind: string; offset: number; target: number; addend?: number }): number;
  setEdgeKind(block: number, index: number, kind: string): void;
  setEdgeTarget(block: number, index: number, target: number): void;
  setEdgeAddend(block: number, index: number, addend: number): void;
  removeEdge(block: number, index: number): void;
  createSection(name: string, prot?: string): void;
  addContentBlock(section: string, content: Bytes, options?: { alignment?: number }): number;
  setBlockContent(block: number, content: Bytes): void;
  removeBlock(block: number): void;
}

export interface Plugin {
  name?: string;
  passes?: Partial<Record<Phase, (g: Graph) => void>>;
  loaded?(object: string): void;
  emitted?(object: string): void;
  failed?(object: string): void;
}

export interface ObjectLinkInfo {
  name: string;
  sections: { name: string; address: number; size: number; prot: string; content: Uint8Array }[];
  symbols: Record<string, { address: number; size: number; scope: string; section: string }>;
  /** Local functions the link pruned (no edge names them; their code stays), where their code was linked. */
  prunedFunctions: Record<string, { address: number; size: number; scope: string; section: string }>;
  gotEntries: Record<string, number>;
  stubs: Record<string, number>;
  /** GOT entry or stub address (as a decimal string key) → its size in bytes. */
  entrySizes: Record<string, number>;
}

/** A C runtime's files by name (see runtimeInfo): an object or a Map. */
export type RuntimeFiles = Record<string, Bytes> | Map<string, Bytes>;
export interface RuntimeInfo {
  description: string;
  /** clang-22 flags that compile C for this runtime: target, ABI, headers. */
  cflags: string;
  /**
   * Every file, link order; `path` is where Debian installs it (Node reads it; a browser fetches `name`).
   * `onDemand` archives (libstdc++.a, libm.a) may be left out when the program does not reach them (runtimeFilesNeeded).
   */
  files: { name: string; path: string; onDemand: boolean }[];
  /** Entered like an exec'd process when the entry is main (glibc's crt1.o), by run() and by a slab session's link(). */
  startObject?: string;
}
/** The C runtime the native CLI links for `triple` (runtime 'default'). */
export function runtimeInfo(triple: string): RuntimeInfo;
/** How much of an ar archive's start holds its head (magic and symbol index), from any prefix of it. */
/** The C runtime fetched a member at a time: rounds of wanted() and addMembers(), then LinkSession.useRuntime(fetch). */
export class RuntimeFetch {
  constructor(triple: string, init: { objects?: { name: string; bytes: Bytes }[];
                                      heads: Record<string, { size: number; bytes: Bytes }>; start?: Bytes | null });
  /** Byte ranges still to fetch (end exclusive); empty once complete. */
  wanted(): { file: string; begin: number; end: number }[];
  addMembers(file: string, begin: number, bytes: Bytes): void;
  readonly membersPulled: number;
}
/** The runtime's files copied into the core once, archive indexes read: sessions given it share them. */
export class PreparedRuntime {
  constructor(triple: string, files: RuntimeFiles);
  dispose(): void;
}
export function archiveHead(bytes: Bytes): { size: number; complete: boolean };
/**
 * The names of the runtime files a link of `objects` needs: every file but the on-demand archives whose
 * symbol index (`heads`: each one's archiveHead bytes; one missing counts as needed) no reference reaches.
 */
export function runtimeFilesNeeded(triple: string, objects: { name: string; bytes: Bytes }[],
                                   heads?: RuntimeFiles): string[];

export interface SessionOptions {
  triple?: string; slabAddress?: U64; slabPageSize?: U64; slabAllocate?: string;
  /** No slab: every graph where a run would place it (linklab -noexec without -slab-* options). */
  placeAsRun?: boolean;
  executor?: Executor;
  phonyExternals?: boolean; recordContents?: boolean; snapshot?: Phase[];
  /** 'default' links the C runtime from runtimeFiles now (default 'none'); in a slab it lies after the slab. */
  runtime?: 'default' | 'none'; runtimeFiles?: RuntimeFiles | PreparedRuntime;
  /** Record what each object linked (linkInfo, linkReport); default true. A slab session without it links less. */
  linkInfo?: boolean;
  /** Calling conventions as linklab's -cc gives them: 'SYMBOL=SIGNATURE;SPEC-OR-PLAN'. */
  conventions?: string[];
  /** Each planner warning as it happens (they also collect in LinkSession.warnings). */
  onWarning?: (message: string) => void;
  /**
   * A linklab command line (without argv[0]): without an executor, the slab and the link info are
   * what `linklab -noexec` sets up for it (its -slab-* options; none: placed as a run).
   */
  command?: string[];
}

export interface RunOptions {
  entry?: string; args?: string[]; argv0?: string; limits?: Limits;
  /** 'default': link the C runtime (runtimeFiles) unless the session has it; 'none': it must not. */
  runtime?: 'default' | 'none'; runtimeFiles?: RuntimeFiles | PreparedRuntime;
  /** Program output during this run (else the executor's onOutput handler). */
  onOutput?: (stream: 'stdout' | 'stderr', data: Uint8Array) => void;
  /** What the program reads from fd 0 (a string is UTF-8), then end of file; default nothing. */
  stdin?: string | Uint8Array;
  /** Called once the program is linked, before main runs (-show-entry-es prints then). */
  beforeMain?: () => void;
  /** The program's environment, "NAME=VALUE" strings (-env); empty by default, as a clean exec. */
  env?: string[];
  /** Read-only files the program finds at `path` in its file system (-file NAME=PATH). */
  files?: { path: string; bytes: Bytes }[];
}

export class LinkSession {
  constructor(options?: SessionOptions);
  /** The link's full triple ("x86_64-unknown-linux-gnu"), from `triple` or the first object. */
  readonly triple: string;
  snapshots: { object: string; phase: Phase; graph: GraphData; dump: string }[];
  /** Calling-convention planner warnings so far. */
  warnings: string[];
  /** One convention entry (as -cc); objects' .linklab.callconv sections are read by addObject. */
  addConvention(entry: string, options?: { origin?: string }): this;
  addObject(object: Bytes, options?: { name?: string; harness?: boolean }): this;
  /** Every object member of an archive, now (-all_load). */
  addArchiveMembers(archive: Bytes, options?: { name?: string }): this;
  /** A read-only section of content's bytes, as -sectcreate=SECTION,FILE@SYMBOL=OFFSET,... (spec) makes it. */
  addSection(spec: string, content: Bytes): this;
  /** -show-init-es / -show-entry-es: call before adding objects, then symbolTables(). */
  recordProcessLookups(): this;
  symbolTables(options?: { process?: boolean }): string;
  addArchive(archive: Bytes, options?: { name?: string }): this;
  /**
   * What the linklab command line argv adds, as the native command adds it: -cc, the inputs
   * (-all_load), -abs, -sectcreate (readFile gives the file's bytes), -phony-externals.
   */
  addCommandInputs(argv: string[], inputs: { name: string; bytes: Bytes; harness?: boolean; library?: boolean }[],
                   readFile?: (path: string) => Bytes | null): this;
  defineAbsolute(name: string, address: U64): this;
  setPhonyExternals(on?: boolean): this;
  /** `objects`: only for these object names (the others' links make no call into JS). */
  addPass(phase: Phase, fn: (g: Graph) => void, options?: { objects?: string[] }): this;
  /** The hooks the plugin has when added are the ones called. */
  addPlugin(plugin: Plugin): this;
  snapshot(phase: Phase): this;
  /** performance.now() when an object last finished linking, or undefined before any did. */
  readonly lastLinkedAt: number | undefined;
  lookup(names: string[]): Promise<number[]>;
  /** entry, or (empty) the C main as the objects' format spells it: main, or _main for MachO (core's default). */
  entrySymbol(entry?: string): string;
  link(options?: { entry?: string }): Promise<number>;
  linkInfo(options?: { contentOf?: string[] }): ObjectLinkInfo[];
  linkReport(options?: { addresses?: boolean; relocated?: boolean }): string;
  useRuntime(files: RuntimeFiles | PreparedRuntime | RuntimeFetch): this;
  readonly hasRuntime: boolean;
  /** Links everything and runs main as the native linklab CLI does (C runtime start-up, constructors, exit). */
  run(options?: RunOptions): Promise<RunResult>;
  /** Runs as run() does, stopped at the program's first instruction under a Debugger. */
  debug(options?: DebugOptions): Debugger;
  dispose(): void;
}

export interface DebugOptions extends RunOptions {
  /** Post-fixup graph data for each stop's fixups (default: the session's post-fixup snapshots). */
  graphs?: { object: string; graph: unknown }[] | (() => { object: string; graph: unknown }[]);
  /** How long the executor waits at a stop for the next command before ending the run (0: 10 minutes). */
  idleMillis?: number;
}
export interface Location {
  object?: string; section?: string; sectionAddress?: number;
  /** 'main+0x4 in .text of a.o', or 'stub for add' / 'GOT entry for counter'. */
  symbol?: string;
  /** A linker-made entry: 'stub for add', 'GOT entry for counter'. */
  table?: string;
  block?: { object: string; section: string; address: number; size: number } | null;
}
export interface Fixup {
  kind: string; target: string; targetAddress?: number; addend: number;
  /** target + addend */
  value?: number; offset: number; width: number;
}
export interface DebugStop {
  reason: 'entry' | 'breakpoint' | 'step' | 'fault';
  pc: number; thread: number; symbol: string; location: Location;
  /** Bytes of the instruction at pc (0 when the executor did not decode it: the first stop, a fault). */
  instructionSize: number;
  /** The edges whose bytes overlap the instruction at pc. */
  fixups: Fixup[];
  /** The general registers by gdb's names. */
  registers: Record<string, bigint>;
  stack: { address: number; bytes: Uint8Array };
  /**
   * pc, then each caller's return address, unwound through the link's
   * call-frame information (.eh_frame) as gdb unwinds, to the process's
   * entry; where the link has none (Arm), the link register and a scan of
   * the stack for words that follow a call.
   */
  backtrace: { address: number; symbol: string }[];
  breakpoint?: Breakpoint;
  fault?: { kind: string; address: number };
}
export interface DebugEnd { reason: 'exited'; result: RunResult }
export interface Breakpoint { spec: string; address: number; where: string }
export class Debugger {
  /** The first stop: the program's first instruction. */
  readonly started: Promise<DebugStop>;
  /** The run result once the program ended. */
  readonly result: Promise<RunResult>;
  readonly stop: DebugStop | DebugEnd | null;
  readonly breakpoints: Breakpoint[];
  /** Symbols ('main', 'add@plt' for add's stub) or addresses; used from the next command on. */
  setBreakpoints(specs: (string | number | bigint)[]): Breakpoint[];
  continue(): Promise<DebugStop | DebugEnd>;
  stepInstruction(): Promise<DebugStop | DebugEnd>;
  /** One instruction; a call runs until it returns to this frame. */
  stepOver(): Promise<DebugStop | DebugEnd>;
  /** Continues without breakpoints: to a fault or the end. */
  runToFault(): Promise<DebugStop | DebugEnd>;
  kill(): Promise<DebugStop | DebugEnd>;
  /** At most 64 KiB. */
  readMemory(address: U64, size: number): Promise<Uint8Array>;
}

export interface PlanLocation {
  inRegister: boolean; value: number; offset: number; size: number; align: number; flags: number;
  register?: number; registerName?: string; registerBytes?: number; stackOffset?: number;
}
export interface Plan {
  text: string; describe: string; target: string; targetId: string; schema: string; convention: string;
  signature: string; stackBytes: number; returns: PlanLocation[]; arguments: PlanLocation[];
  calleeSaved: number[]; warnings: string[];
}
/** A reproducer: a session's objects and the options that decide its outcome (as linklab -export-test / -reduce read them). */
export interface ReproCase {
  objects: { name: string; bytes: Bytes; harness?: boolean }[];
  triple?: string;
  entry?: string;
  /** The program's whole argv. */
  args?: string[];
  /** 'NAME=ADDRESS' */
  absolutes?: string[];
  noExec?: boolean;
  phonyExternals?: boolean;
  runtime?: 'default' | 'none';
  /** What the program reads from fd 0 (a string is UTF-8); the exported test feeds it the same. */
  stdin?: string | Uint8Array;
}
export interface ExportedTest {
  files: { path: string; text: string }[];
  testFile: string;
  checks: number;
  notes: string[];
}
export const UNASKED_LLVM_JITLINK: string;
export function exportTest(c: ReproCase, outcome: { error?: string; exitCode?: number; output?: string; signal?: number },
                           options?: { name?: string; marks?: string[]; linklabOnly?: string; compareOutput?: boolean;
                                       acceptAssembly?: (object: string, text: string, mcFlags: string) => boolean }): ExportedTest;
export function reduce(c: ReproCase, fails: (candidate: ReproCase) => boolean | Promise<boolean>,
                       options?: { seconds?: number; onProgress?: (line: string) => void }):
  Promise<{ objects: { name: string; bytes: Uint8Array; harness: boolean }[]; removed: string[]; tests: number; timedOut: boolean }>;
export function plan(q: { spec?: string; signature: string; triple: string; expect?: string }): Plan;
export function validatePlan(text: string, q: { signature: string; triple: string; expect?: string }): Plan;
export function parseOptions(args: string[]): Record<string, unknown>;
/** The `linklab` options linklab-run refuses: what each does that only the native command can. */
export function nativeOnlyOptions(): { name: string; what: string }[];
/** The `linklab` command's decisions, from core (core/driver/command.h); errors name `field`. */
export const driver: {
  findLibrary(name: string, paths: string[], exists: (path: string) => boolean): string;
  parseAbsolute(text: string, field?: string): { name: string; address: string };
  selectRuntime(runtime: string, triple: string, o?: { field?: string; required?: boolean }): boolean;
  inputTriple(given: string, inputs: { name: string; bytes: Bytes }[]): string;
  formatTimings(loadMs: number, linkMs: number, totalMs: number): string;
  /** The file a -sectcreate argument names. */
  sectCreateFile(arg: string): string;
};

export interface Transport {
  send(bytes: Uint8Array): void;
  onData(cb: (bytes: Uint8Array) => void): void;
  onClose?(cb: (why?: string) => void): void;
  /** webSocketTransport only: the bridge's news, {queue: N} while waiting for an executor (0: started). */
  onStatus?(cb: (news: { queue?: number }) => void): void;
  close?(): void;
}
export interface Limits { instructions?: U64; wallMillis?: number; memoryBytes?: U64; processEntry?: boolean }
export interface RunResult {
  status: string; value: number; description: string; exitCode?: number; error?: string;
  fault?: string; pc?: number; address?: number; instructions: number;
  results: { dwarf: number; value: Uint8Array }[]; returnValue?: bigint | Uint8Array; lines?: string[];
}
export type CallArg = number | bigint | Uint8Array | { f64: number } | { f32: number };

export class Executor {
  constructor(transport: Transport);
  onOutput(fn: (stream: 'stdout' | 'stderr', bytes: Uint8Array) => void): this;
  /** wait: false resolves at once with the answer an executor of this build gives; a different one fails the next run. */
  setup(triple: string, options?: { wait?: boolean }): Promise<{ triple: string; pageSize: number; symbols: Record<string, number> }>;
  runMain(entry: U64, args?: string[], limits?: Limits): Promise<RunResult>;
  callWithPlan(entry: U64, plan: Plan, args?: CallArg[] | string, limits?: Limits): Promise<RunResult>;
  readMemory(address: U64, size: number): Promise<Uint8Array>;
  close(): Promise<void>;
}
/**
 * The executor's WebSocket bridge at `url`, or a WebSocket to it opened already (taken as it is:
 * open, still connecting, or closed, which rejects); its close reason becomes the error of requests in flight.
 */
export function webSocketTransport(url: string | WebSocket, options?: { WebSocket?: unknown }): Promise<Transport>;

// node.mjs only
export function spawnExecutorTransport(path?: string): Transport & { child: unknown };
export function connectExecutorTransport(hostPort: string): Promise<Transport>;
export function spawnExecutor(triple: string, path?: string): Promise<Executor>;
/** Node: the runtime's files for `triple` read from their Debian paths. */
export function readRuntimeFiles(triple: string): Record<string, Uint8Array>;
/** readRuntimeFiles without the on-demand archives (libstdc++.a, libm.a) the objects reach no symbol of. */
export function readRuntimeFilesFor(triple: string, objects: { name: string; bytes: Bytes }[]):
  Promise<Record<string, Uint8Array>>;
