// One function with an unwind table entry (.eh_frame: a CIE and one FDE,
// its PC range an ADD32/SUB32 pair under linker relaxation).
extern int ext_fn(int);
int main(int argc, char **argv) { return ext_fn(argc * 3) + 1; }
