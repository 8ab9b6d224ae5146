// For JS passes: main calls pick_a; a pass retargets that call to pick_b.
// The volatile reads keep the compiler from folding the calls away.
volatile int va = 11, vb = 22;
__attribute__((noinline)) int pick_a(void) { return va; }
__attribute__((noinline)) int pick_b(void) { return vb; }
int main(void) { return pick_a(); }
