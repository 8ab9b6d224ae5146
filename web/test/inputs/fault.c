// Reads through a near-null pointer (page 0 is never mapped): the run ends
// in a fault whose PC the page names as a symbol of this object.
int main(void) { return *(volatile int *)0x10UL; }
