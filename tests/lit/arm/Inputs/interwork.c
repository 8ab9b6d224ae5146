// Arm and Thumb functions calling each other, a call to a function outside
// the object, a global and a pointer to it.
extern int ext(int);
int counter = 5;
int *counter_ptr = &counter;

static int helper(int x) { return x * 3 + counter; }

__attribute__((target("thumb"))) int thumb_fn(int x) { return helper(x) + 1; }

__attribute__((target("arm"))) int arm_fn(int x) { return thumb_fn(x) + ext(x); }

__attribute__((target("thumb"))) int main(void) { return arm_fn(2) + *counter_ptr; }
