// Linker directives in .drectve that JITLink acts on: /alternatename gives
// the undefined want() the definition of impl_fn(), and /include makes the
// link look up forced_sym though nothing refers to it. Entry: run.
int impl_fn(void) { return 7; }
int want(void);
#pragma comment(linker, "/alternatename:want=impl_fn")
#pragma comment(linker, "/include:forced_sym")
int run(void) { return want() + 3; }
