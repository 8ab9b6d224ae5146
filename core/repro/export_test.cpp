#include "repro/export_test.h"

#include "check/check.h"
#include "check/link_info_env.h"
#include "driver/command.h"
#include "driver/link.h"
#include "driver/settings.h"
#include "link/table_manager.h"
#include "session/link_info.h"
#include "session/session.h"
#include "target/target.h"

#include <cstring>
#include <map>
#include <set>

namespace linklab::repro {

namespace {

// llvm-jitlink's parser takes no blank after a number: offsets come last,
// and a bare number (a phony external) folds its offset in.
std::string offsetExpr(const std::string &Base, int64_t Off) {
  if (Base == "0")
    return hex(uint64_t(Off));
  if (!Off)
    return Base;
  return Off < 0 ? Base + " - " + hex(uint64_t(0) - uint64_t(Off)) : Base + " + " + hex(uint64_t(Off));
}

// One rule per field a fixup wrote: its bits equal the kind's expression
// of P (the fixup address) and V (target + addend). Word is the fixed-up
// instruction, for the kinds whose field depends on it. Kinds not listed
// (TLS, GOT-relative, size, RISC-V pair lows and in-place arithmetic) get
// no rule.
std::vector<std::string> rulesFor(const std::string &Kind, const std::string &P, const std::string &V, uint32_t Word) {
  const std::string L = "*{4}(" + P + ")", Ins = "(*{4}(" + P + "))", D = "((" + V + ") - (" + P + "))";
  auto field = [&](int Hi, int Lo, const std::string &E, int EHi, int ELo) {
    return formatv("%s[%d:%d] = %s[%d:%d]", Ins.c_str(), Hi, Lo, E.c_str(), EHi, ELo);
  };
  if (Kind == "Pointer64" || Kind == "R_RISCV_64")
    return {"*{8}(" + P + ") = " + V};
  if (Kind == "Pointer32" || Kind == "Pointer32Signed" || Kind == "R_RISCV_32")
    return {L + " = (" + V + ")[31:0]"};
  if (Kind == "Pointer16")
    return {"*{2}(" + P + ") = (" + V + ")[15:0]"};
  if (Kind == "Pointer8")
    return {"*{1}(" + P + ") = (" + V + ")[7:0]"};
  if (Kind == "Delta64")
    return {"*{8}(" + P + ") = " + D};
  if (Kind == "Delta32" || Kind == "R_RISCV_32_PCREL" || Kind == "PCRel32GOTLoadRelaxable" ||
      Kind == "PCRel32GOTLoadREXRelaxable")
    return {L + " = " + D + "[31:0]"};
  if (Kind == "Delta16")
    return {"*{2}(" + P + ") = " + D + "[15:0]"};
  if (Kind == "Delta8")
    return {"*{1}(" + P + ") = " + D + "[7:0]"};
  if (Kind == "NegDelta64")
    return {"*{8}(" + P + ") = (" + P + ") - (" + V + ")"};
  if (Kind == "NegDelta32")
    return {L + " = ((" + P + ") - (" + V + "))[31:0]"};
  if (Kind.starts_with("BranchPCRel32")) // x86-64: relative to the next instruction
    return {L + " = (" + D + " - 4)[31:0]"};
  // AArch64 (instruction fields per the Arm ARM encodings).
  if (Kind == "Branch26PCRel")
    return {field(25, 0, D, 27, 2)};
  if (Kind == "CondBranch19PCRel" || Kind == "LDRLiteral19")
    return {field(23, 5, D, 20, 2)};
  if (Kind == "TestAndBranch14PCRel")
    return {field(18, 5, D, 15, 2)};
  if (Kind == "ADRLiteral21")
    return {field(30, 29, D, 1, 0), field(23, 5, D, 20, 2)};
  if (Kind == "Page21" || Kind == "Page21NoCheck") {
    std::string Pages = "(((" + V + ") >> 12) - ((" + P + ") >> 12))";
    return {field(30, 29, Pages, 1, 0), field(23, 5, Pages, 20, 2)};
  }
  if (Kind == "PageOffset12") {
    int Scale = 0;
    if ((Word & 0x3b000000) == 0x39000000) // load/store, unsigned offset: scaled by the access size
      Scale = (Word & 0x04800000) == 0x04800000 ? 4 : int(Word >> 30);
    return {field(21, 10, "(" + V + ")", 11, Scale)};
  }
  if (Kind == "MoveWide16" || Kind == "MoveWide16Checked") {
    int Shift = int((Word >> 21) & 3) * 16;
    return {field(20, 5, "(" + V + ")", Shift + 15, Shift)};
  }
  // RISC-V (U/I/S/J/B-type immediates).
  if (Kind == "R_RISCV_PCREL_HI20")
    return {field(31, 12, "(" + D + " + 0x800)", 31, 12)};
  if (Kind == "R_RISCV_HI20")
    return {field(31, 12, "((" + V + ") + 0x800)", 31, 12)};
  if (Kind == "R_RISCV_LO12_I")
    return {field(31, 20, "(" + V + ")", 11, 0)};
  if (Kind == "R_RISCV_LO12_S")
    return {field(31, 25, "(" + V + ")", 11, 5), field(11, 7, "(" + V + ")", 4, 0)};
  if (Kind == "R_RISCV_CALL" || Kind == "R_RISCV_CALL_PLT")
    return {field(31, 12, "(" + D + " + 0x800)", 31, 12),
            formatv("(*{4}((%s) + 4))[31:20] = %s[11:0]", P.c_str(), D.c_str())};
  if (Kind == "R_RISCV_JAL")
    return {field(31, 31, D, 20, 20), field(30, 21, D, 10, 1), field(20, 20, D, 11, 11), field(19, 12, D, 19, 12)};
  if (Kind == "R_RISCV_BRANCH")
    return {field(31, 31, D, 12, 12), field(30, 25, D, 10, 5), field(11, 8, D, 4, 1), field(7, 7, D, 11, 11)};
  return {};
}

struct Site {
  std::string where; // "a.o: .text+0x10: Branch26PCRel against foo"
  std::vector<std::string> rules;
};

// Records, after fixups, the rules of every selected edge of the graphs of
// the user's objects (archive members and synthesized graphs are not).
class SiteRecorder : public Plugin {
public:
  SiteRecorder(std::set<std::string> Files, std::vector<std::string> Marks)
      : Files(std::move(Files)), Marks(std::move(Marks)) {}
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override {
    if (!Files.count(G.name()))
      return;
    Config.postFixupPasses.push_back([this](LinkGraph &G) {
      record(G);
      return Error::success();
    });
  }
  std::vector<Site> Sites;
  std::vector<std::string> Notes;

private:
  static Addr sectionStart(const Section &S) {
    Addr Lo = ~Addr(0);
    for (Block *B : S.blocks)
      Lo = std::min(Lo, B->address);
    return Lo;
  }
  // A global name for A in B, else section_addr, and the offset from it.
  using Based = std::pair<std::string, int64_t>;
  static Based addressOf(const LinkGraph &G, const Block &B, Addr A) {
    const Symbol *Best = nullptr;
    for (Symbol *S : B.section->symbols)
      if (&S->block() == &B && S->hasName() && S->scope != Scope::Local && S->address() <= A &&
          (!Best || S->address() > Best->address()))
        Best = S;
    if (Best)
      return {std::string(Best->name), int64_t(A - Best->address())};
    return {"section_addr(" + G.name() + ", " + std::string(B.section->name) + ")",
            int64_t(A - sectionStart(*B.section))};
  }
  static std::string addressExpr(const LinkGraph &G, const Block &B, Addr A) {
    auto [Base, Off] = addressOf(G, B, A);
    return offsetExpr(Base, Off);
  }
  static Based targetOf(const LinkGraph &G, const Symbol &T) {
    if (T.isDefined()) {
      std::string_view Sec = T.section().name;
      if ((Sec == GOTSectionName || Sec == StubsSectionName) && !T.block().edges.empty()) {
        const Symbol *To = T.block().edges.front().target;
        if (To->isDefined() && To->section().name == GOTSectionName && !To->block().edges.empty())
          To = To->block().edges.front().target;
        if (!To->hasName())
          return {"", 0};
        return {(Sec == GOTSectionName ? "got_addr(" : "stub_addr(") + G.name() + ", " + std::string(To->name) + ")",
                0};
      }
      if (T.hasName() && T.scope != Scope::Local)
        return {std::string(T.name), 0};
      return addressOf(G, T.block(), T.address());
    }
    // Phony externals resolve to 0 and have no name a checker knows.
    if (T.isExternal() && T.address() == 0)
      return {"0", 0};
    return {T.hasName() ? std::string(T.name) : "", 0};
  }
  const Symbol *find(const LinkGraph &G, const std::string &Name) const {
    const Symbol *Found = nullptr;
    G.forEachDefinedSymbol([&](Symbol &S) {
      if (S.name == Name)
        Found = &S;
    });
    return Found;
  }
  void record(LinkGraph &G) {
    // Marked blocks and addresses of this graph.
    std::set<const Block *> Blocks;
    std::set<Addr> Addrs;
    for (auto &M : Marks) {
      size_t Plus = M.find('+');
      const Symbol *S = find(G, M.substr(0, Plus));
      if (!S)
        continue;
      if (Plus == std::string::npos)
        Blocks.insert(&S->block());
      else
        Addrs.insert(S->address() + std::strtoull(M.c_str() + Plus + 1, nullptr, 0));
    }
    G.forEachBlock([&](Block &B) {
      std::string_view Sec = B.section->name;
      bool Selected = Marks.empty() ? !Sec.starts_with("$__") && Sec != ".eh_frame" : Blocks.count(&B) > 0;
      for (const Edge &E : B.edges) {
        if (E.kind < edge::FirstRelocation || !(Selected || Addrs.count(B.fixupAddress(E))))
          continue;
        const char *K = G.edgeKindName(E.kind);
        Addr P = B.fixupAddress(E);
        std::string Where = formatv("%s: %.*s+%s: %s against %.*s", G.name().c_str(), int(Sec.size()), Sec.data(),
                                    hex(P - sectionStart(*B.section)).c_str(), K ? K : "?", int(E.target->name.size()),
                                    E.target->name.data());
        auto [T, TOff] = targetOf(G, *E.target);
        uint32_t Word = 0;
        if (!B.isZeroFill() && E.offset + 4 <= B.size)
          std::memcpy(&Word, B.data + E.offset, 4);
        std::vector<std::string> Rules;
        if (K && !T.empty())
          Rules = rulesFor(K, addressExpr(G, B, P), offsetExpr(T, TOff + E.addend), Word);
        if (Rules.empty())
          Notes.push_back(Where + ": no jitlink-check form for this kind or target");
        else
          Sites.push_back({Where, std::move(Rules)});
      }
    });
  }
  std::set<std::string> Files;
  std::vector<std::string> Marks;
};

// FileCheck reads [[ and {{ as its own syntax.
std::string fileCheckLiteral(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (I + 1 < S.size() && (S.compare(I, 2, "[[") == 0 || S.compare(I, 2, "{{") == 0)) {
      Out += S[I] == '[' ? "{{\\[\\[}}" : "{{\\{\\{}}";
      ++I;
    } else
      Out += S[I];
  }
  return Out;
}

std::string shellQuote(const std::string &S) {
  bool Plain = !S.empty();
  for (char C : S)
    Plain &= isalnum(uint8_t(C)) || strchr("_-.,/=+:@", C);
  if (Plain)
    return S;
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

// A RUN line, continued with '\' past ~100 columns.
std::string runLines(const std::string &Cmd) {
  std::string Out, Line = "# RUN: ";
  size_t Start = 0;
  while (Start < Cmd.size()) {
    size_t Space = Cmd.find(' ', Start);
    std::string Word = Cmd.substr(Start, Space == std::string::npos ? std::string::npos : Space - Start);
    if (Line.size() + Word.size() > 100 && Line.size() > 10) {
      Out += Line + "\\\n";
      Line = "# RUN:   ";
    }
    Line += Word + " ";
    Start = Space == std::string::npos ? Cmd.size() : Space + 1;
  }
  while (!Line.empty() && Line.back() == ' ')
    Line.pop_back();
  return Out + Line + "\n";
}

// A fault report's stable part as a FileCheck pattern: "program <kind> at
// pc" and a null pointer's offset; the pc, its symbol and other addresses
// depend on the layout (the runtime's size, the executor's slab).
std::string faultPattern(const std::string &Report) {
  std::string Line = Report.substr(0, Report.find('\n'));
  size_t At = Line.find(" at pc ");
  if (At == std::string::npos) // no pc to leave out
    return fileCheckLiteral(Line);
  std::string Pattern = fileCheckLiteral(Line.substr(0, At + 7)) + "{{.*}}";
  size_t Null = Line.find(", null pointer", At);
  if (Null != std::string::npos)
    Pattern += fileCheckLiteral(Line.substr(Null, Line.find(" (address ", Null) - Null));
  return Pattern;
}

} // namespace

Expected<std::vector<std::string>> fixupChecks(const ReproCase &C, const std::vector<std::string> &Marks,
                                               std::vector<std::string> &Notes) {
  // The `linklab -noexec` the rules will run in (its RUN line): at the
  // test's slab, without the C runtime, a program's C library calls phony
  // (they have no definitions there).
  driver::Options O;
  O.noExec = true;
  O.slabAddress = "0x10000", O.slabPageSize = "4096", O.slabAllocate = "64Mb";
  O.triple = C.triple;
  O.entry = C.entry;
  O.absolutes = C.absolutes;
  O.phonyExternals = C.phonyExternals || !C.noExec;
  O.runtime = "none";
  std::vector<driver::Input> Inputs;
  for (auto &In : C.inputs)
    Inputs.push_back({baseName(In.name), inputBytes(In), In.harness ? ObjectKind::Harness : ObjectKind::Regular});
  std::vector<driver::InputBytes> Named;
  for (auto &I : Inputs)
    Named.push_back({I.name, I.bytes.span()});
  auto TT = driver::inputTriple(O.triple, Named);
  if (!TT)
    return TT.takeError();
  auto Slab = driver::makeSlab(O);
  if (!Slab)
    return Slab.takeError();
  auto NoWarnings = [](const std::string &) {}; // a run of the case shows them
  auto L = driver::Link::slab(*TT, std::move(*Slab), /*AsRun=*/false, NoWarnings, /*Record=*/true);
  Session &S = L->session();
  LinkInfoRecorder &Info = L->linkInfo();
  Info.setRecordContents(true);
  std::set<std::string> Files;
  for (auto &In : C.inputs)
    if (!In.archive)
      Files.insert(baseName(In.name));
  auto Sites = std::make_shared<SiteRecorder>(Files, Marks);
  S.addPlugin(Sites);
  if (Error E = L->addInputs(Inputs, O, [](const std::string &Path) -> Expected<SharedBytes> {
        return makeError(Path + ": the exporter reads no files");
      }))
    return E;
  std::optional<Expected<Addr>> Entry;
  L->linkEntry(O.entry, [&Entry](Expected<Addr> A) { Entry.emplace(std::move(A)); });
  if (!Entry)
    return makeError("internal error: the link of the entry did not finish");
  if (!*Entry)
    return Entry->takeError();
  check::LinkInfoCheckEnv Env(Info, S.triple().arch, [&S](std::string_view N) { return S.addressOf(N); });
  std::vector<std::string> Rules;
  Notes.insert(Notes.end(), Sites->Notes.begin(), Sites->Notes.end());
  for (auto &Site : Sites->Sites)
    for (auto &R : Site.rules) {
      auto V = check::evaluateRule(R, Env);
      if (V && V->lhs == V->rhs)
        Rules.push_back(R);
      else
        Notes.push_back(Site.where + ": generated rule does not hold, left out: " + R +
                        (V ? "" : " (" + V.takeError().message() + ")"));
    }
  return Rules;
}

Expected<ExportedTest> exportTest(const ReproCase &C, const Outcome &O, const ExportOptions &Opts) {
  if (C.inputs.empty())
    return makeError("export: the session has no objects");
  ExportedTest T;
  std::string LinklabOnly = Opts.linklabOnly;
  if (C.runtime == "none" && !C.noExec && LinklabOnly.empty())
    LinklabOnly = "-runtime=none is linklab's own option";
  if (O.signal && !C.noExec && LinklabOnly.empty())
    LinklabOnly = SignalLinklabOnly;

  // Objects: assembly where it re-assembles to the same object, else YAML.
  // Each is rebuilt under its own base name (errors and checks name it).
  std::string Build, Head;
  std::string TestBody; // the first object's assembly, when it is the test file
  std::set<std::string> Stems;
  auto stemFor = [&](const std::string &Base) {
    std::string S;
    for (char Ch : Base)
      S += isalnum(uint8_t(Ch)) || Ch == '_' || Ch == '-' ? Ch : '_';
    std::string U = S;
    for (int N = 2; !Stems.insert(U).second; ++N)
      U = S + "_" + std::to_string(N);
    return U;
  };
  std::string Unbuildable; // the first object the test could not rebuild: the export fails
  auto emit = [&](const ElfObject &Obj, const std::string &OutPath, bool MayBeTest) {
    auto A = writeAssembly(Obj);
    // Renamed labels (a name the object uses twice) must not be what the
    // expected error names: the rebuilt object would say the new name.
    std::string NamedInError;
    if (A && O.linkError)
      for (auto &[I, New] : A->renamed)
        if (O.error.find(Obj.symbols[I].name) != std::string::npos)
          NamedInError = Obj.symbols[I].name;
    bool UseAsm = A && NamedInError.empty() && Opts.acceptAssembly && Opts.acceptAssembly(Obj, *A);
    if (!A)
      T.notes.push_back(A.takeError().message() + "; written as YAML");
    else if (!NamedInError.empty())
      T.notes.push_back(
          Obj.name + ": the error names " + NamedInError +
          ", a label its assembly would rename (the object uses the name more than once); written as YAML");
    else if (!UseAsm)
      T.notes.push_back(Obj.name + ": " +
                        (Opts.acceptAssembly ? "its assembly did not re-assemble to the same object"
                                             : "no assembler to verify its assembly with") +
                        "; written as YAML");
    if (UseAsm && !A->renamed.empty())
      T.notes.push_back(formatv("%s: %zu local labels whose name it uses more than once are renamed <name>$<index> "
                                "in its assembly (%s...)",
                                Obj.name.c_str(), A->renamed.size(), A->renamed.front().second.c_str()));
    if (UseAsm && MayBeTest && TestBody.empty()) {
      TestBody = A->text;
      Build += "llvm-mc " + A->mcFlags + " -filetype=obj -o " + OutPath + " %s\n";
      return;
    }
    std::string Stem = stemFor(baseName(Obj.name));
    if (UseAsm) {
      T.files.push_back({"Inputs/" + Opts.name + "-" + Stem + ".s", A->text});
      Build +=
          "llvm-mc " + A->mcFlags + " -filetype=obj -o " + OutPath + " %S/Inputs/" + Opts.name + "-" + Stem + ".s\n";
    } else {
      std::string Yaml = writeYaml(Obj);
      if (Opts.checkYaml && Unbuildable.empty())
        if (std::string Problem = Opts.checkYaml(Obj, Yaml); !Problem.empty())
          Unbuildable = Obj.name + ": neither its assembly nor its YAML rebuilds it (" + Problem + ")";
      T.files.push_back({"Inputs/" + Opts.name + "-" + Stem + ".yaml", Yaml});
      Build += "yaml2obj -o " + OutPath + " %S/Inputs/" + Opts.name + "-" + Stem + ".yaml\n";
    }
  };
  std::string Objects, Harnesses;
  std::set<std::string> Bases;
  for (auto &In : C.inputs) {
    std::string Base = baseName(In.name);
    if (!Bases.insert(Base).second)
      return makeError("export: two inputs are named " + Base + "; rename one");
    if (!In.archive) {
      emit(In.objects.front(), "%t/" + Base, !In.harness);
    } else {
      std::string Dir = "%t/" + stemFor(Base) + ".members", Members;
      Build += "mkdir -p " + Dir + "\n";
      for (auto &M : In.objects) {
        emit(M, Dir + "/" + baseName(M.name), false);
        Members += " " + Dir + "/" + baseName(M.name);
      }
      Build += "llvm-ar crs %t/" + Base + Members + "\n";
    }
    (In.harness ? Harnesses : Objects) += " %t/" + Base;
  }
  if (!Unbuildable.empty())
    return makeError("export: the test would not rebuild its inputs: " + Unbuildable);

  std::string Common;
  if (!C.entry.empty())
    Common += " -entry=" + shellQuote(C.entry);
  for (auto &A : C.absolutes)
    Common += " -abs=" + shellQuote(A);
  if (C.phonyExternals)
    Common += " -phony-externals";
  if (!C.triple.empty())
    Common += " -triple=" + shellQuote(C.triple);
  // A -noexec session without the C runtime: llvm-jitlink's spelling, which
  // both linkers take.
  bool NoRuntime = C.noExec && C.runtime == "none";
  if (NoRuntime)
    Common += " -no-process-syms";
  std::string Tail = Objects + (Harnesses.empty() ? "" : " -harness" + Harnesses);

  std::string Run = "rm -rf %t && mkdir -p %t\n" + Build;
  std::string Expect;
  if (O.linkError) {
    // The message names inputs by base name (the caller linked them from
    // one folder); the test's are %t/<base>.
    std::string Msg = O.error;
    std::string Pattern;
    for (size_t I = 0; I < Msg.size();) {
      bool Replaced = false;
      for (auto &In : C.inputs)
        if (std::string B = baseName(In.name); !B.empty() && Msg.compare(I, B.size(), B) == 0) {
          Pattern += "{{.*}}" + fileCheckLiteral(B);
          I += B.size();
          Replaced = true;
          break;
        }
      if (!Replaced) {
        size_t Next = std::string::npos;
        for (auto &In : C.inputs)
          if (!In.name.empty())
            Next = std::min(Next, Msg.find(baseName(In.name), I + 1));
        std::string Chunk = Msg.substr(I, Next == std::string::npos ? std::string::npos : Next - I);
        Pattern += fileCheckLiteral(Chunk);
        I += Chunk.size();
      }
    }
    Run += "not linklab" + std::string(C.noExec ? " -noexec " + std::string(SlabOptions) : "") + Common + Tail +
           " 2>&1 | FileCheck %s --check-prefix=ERROR\n";
    Expect += "# ERROR: error: " + Pattern.substr(0, Pattern.find('\n')) + "\n";
  } else {
    std::vector<std::string> Rules;
    auto Checked = fixupChecks(C, Opts.marks, T.notes);
    if (!Checked)
      T.notes.push_back("no jitlink-check rules: the -noexec link for them failed: " + Checked.takeError().message());
    else
      Rules = std::move(*Checked);
    T.checks = unsigned(Rules.size());
    if (!Rules.empty()) {
      // As fixupChecks linked: no C runtime, phony externals for a run's.
      Run += "linklab -noexec " + std::string(SlabOptions) + Common + (NoRuntime ? "" : " -no-process-syms") +
             (C.phonyExternals || C.noExec ? "" : " -phony-externals") + " -check=%s" + Tail + "\n";
      for (auto &R : Rules)
        Expect += "# jitlink-check: " + R + "\n";
    }
    if (!C.noExec) {
      std::string Args;
      if (!C.args.empty() && Harnesses.empty()) {
        Args = " -args";
        for (auto &A : C.args)
          Args += " " + shellQuote(A);
      }
      // The program reads what the session's read, from a file beside the test.
      std::string Stdin;
      if (!C.stdin_.empty()) {
        T.files.push_back({Opts.name + ".stdin", C.stdin_});
        Stdin = " < %S/" + Opts.name + ".stdin";
      }
      std::string Cmd =
          "linklab" + Common + (C.runtime == "none" ? " -runtime=none" : "") + Tail + Args + Stdin + " > %t/stdout";
      if (O.signal) {
        // `not` takes a signal's status for a crash: the status is tested
        // as a shell sees it, and the report is read from stderr.
        Run += Cmd + " 2> %t/stderr; test $? -eq " + std::to_string(128 + O.signal) + "\n";
        Run += "FileCheck %s --check-prefix=FAULT < %t/stderr\n";
        Expect += "# FAULT: error: " + faultPattern(O.report) + "\n";
      } else
        Run += O.exitCode ? Cmd + "; test $? -eq " + std::to_string(O.exitCode) + "\n" : Cmd + "\n";
      if (Opts.compareOutput) {
        T.files.push_back({Opts.name + ".stdout", O.output});
        Run += "diff %t/stdout %S/" + Opts.name + ".stdout\n";
      } else
        T.notes.push_back("the run's output is not compared: only its exit status was kept");
    } else if (Rules.empty())
      Run += "linklab -noexec " + std::string(SlabOptions) + Common + Tail + "\n";
  }

  std::string Text = "# Exported by linklab -export-test: the session's objects, rebuilt at test time, linked\n"
                     "# as it linked them; the outcome it had is the expectation.\n";
  if (!LinklabOnly.empty())
    Text += "# REQUIRES-LINKLAB-ONLY: " + LinklabOnly + "\n";
  Text += "#\n";
  size_t Start = 0;
  while (Start < Run.size()) {
    size_t End = Run.find('\n', Start);
    Text += runLines(Run.substr(Start, End - Start));
    Start = End + 1;
  }
  if (!T.notes.empty()) {
    Text += "#\n";
    for (auto &N : T.notes)
      Text += "# note: " + N + "\n";
  }
  Text += "#\n" + Expect;
  if (!TestBody.empty()) {
    T.testFile = Opts.name + ".s";
    Text += "\n" + TestBody;
  } else
    T.testFile = Opts.name + ".test";
  T.files.insert(T.files.begin(), {T.testFile, Text});
  return T;
}

} // namespace linklab::repro
